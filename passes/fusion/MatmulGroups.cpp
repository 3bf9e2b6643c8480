//===- MatmulGroups.cpp - kernels of several matmuls ----------------------===//
//
// A kernel holds one matmul, except where a rule knows a kernel of several
// that its mapping computes better than the kernels apart:
//
// The `matmul-chain` rule (summedMatmuls, asked by canMerge): matmuls
// whose products are summed, `a @ b + c @ d`, with the sums (the pattern
// in analysis/MatmulChain.h); the mapping keeps one accumulator.
//
// The `attention` rule: before the greedy grouping judges any edge, each
// attention (analysis/Attention.h: two matmuls, the scores' elementwise
// ops, a softmax between them; the copies of the views its q, k and v are;
// the head merge's copy of its result) becomes one group whose kernel is
// of kind `attention`. Pairwise rules cannot find it: a kernel of theirs
// holds one matmul, and the softmax's row reductions read the whole row of
// scores, so each pair is refused (matmul-boundary, anchor-conflict) even
// though the whole, computed tile by tile with an online softmax
// (gpu/attention/), never writes the scores. The group then takes nothing
// else.
//
//===----------------------------------------------------------------------===//
#include "passes/analysis/Attention.h"
#include "passes/analysis/MatmulChain.h"
#include "passes/fusion/Planner.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "kf-form-kernels"

using namespace mlir;

namespace kfuse::fusion {

void Planner::formAttention(FusionPlan &plan) {
  if (!opt.enabled || !opt.attention)
    return;
  for (unsigned n = 0; n < g.nodes.size(); ++n) {
    if (g.nodes[n].kind != KernelKind::Matmul || groups[groupOf[n]].attention)
      continue;
    auto pv = dyn_cast<linalg::LinalgOp>(g.nodes[n].op);
    if (!pv)
      continue;
    SmallVector<unsigned> members;
    std::string refusal;
    for (Operation *op : analysis::attentionEndingAt(pv, &refusal))
      if (auto it = g.nodeOf.find(op); it != g.nodeOf.end())
        members.push_back(it->second);
    if (members.empty() && !refusal.empty())
      plan.attentionsMissed.push_back({n, refusal});
    // Where the target's three kernels are faster, the scores' size decides
    // (FusionOptions.h: kHostAttentionMinScores).
    if (!members.empty()) {
      uint64_t least = opt.attentionMinScores.value_or(kGpuAttentionMinScores);
      auto scores = cast<ShapedType>(pv.getDpsInputs()[0].getType());
      if (least > 0 && scores.hasStaticShape()) {
        uint64_t bytes = uint64_t(scores.getNumElements()) *
                         (scores.getElementTypeBitWidth() / 8);
        if (bytes < least) {
          plan.attentionsMissed.push_back(
              {n, "its scores take " + std::to_string(bytes) +
                      " bytes, below attention-min-scores (" + std::to_string(least) +
                      "): on this target the three kernels are faster"});
          continue;
        }
      }
    }
    // A kernel of the pattern's ops was refused by the mappings (isolated
    // ops), or it is over the op limit: the ops stay as the other rules
    // group them.
    if (members.empty() || (opt.maxOps && members.size() > opt.maxOps) ||
        llvm::any_of(members, [&](unsigned m) {
          return isolated.alone[m] || isolated.noAttention[m] ||
                 groups[groupOf[m]].nodes.size() > 1;
        }))
      continue;
    llvm::sort(members);
    unsigned gid = groupOf[members.front()];
    Group &group = groups[gid];
    for (unsigned m : ArrayRef(members).drop_front()) {
      Group &other = groups[groupOf[m]];
      groupOf[m] = gid;
      group.nodes.push_back(m);
      group.exits.insert(group.exits.end(), other.exits.begin(), other.exits.end());
      other = Group();
    }
    llvm::erase_if(group.exits, [&](unsigned s) { return groupOf[s] == gid; });
    group.first = members.front();
    group.last = members.back();
    group.attention = true;
    group.matmul = n;
    group.reduction.reset();
    group.hasSmallReduction = false;
    group.pointwiseDomains.clear();
    lastMerged = std::max(lastMerged, group.last);
    for (auto [i, e] : llvm::enumerate(g.edges))
      if (groupOf[e.producer] == gid && groupOf[e.consumer] == gid) {
        plan.decisions[i] = {Reason::Fused, ruleName(FusionRule::Attention).str()};
        decided[i] = true;
      }
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] attention ending at matmul#" << n << ": "
                            << members.size() << " ops\n");
  }
}

/// Whether the matmuls of groups x and y and the sums between them are
/// one chain (analysis/MatmulChain.h) that their ops hold whole.
bool Planner::summedMatmuls(const Group &x, const Group &y) const {
  SmallVector<linalg::LinalgOp> matmuls;
  llvm::DenseSet<Operation *> ops;
  for (const Group *group : {&x, &y})
    for (unsigned n : group->nodes) {
      ops.insert(g.nodes[n].op);
      if (g.nodes[n].kind == KernelKind::Matmul)
        matmuls.push_back(cast<linalg::LinalgOp>(g.nodes[n].op));
    }
  llvm::sort(matmuls, [&](linalg::LinalgOp l, linalg::LinalgOp r) {
    return g.nodeOf.lookup(l) < g.nodeOf.lookup(r);
  });
  return analysis::matchMatmulChain(matmuls, [&](Operation *op) { return ops.contains(op); });
}

} // namespace kfuse::fusion
