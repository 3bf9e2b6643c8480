//===- SiblingFusion.cpp - kernels that read the same tensor, together ----===//
//
// Horizontal fusion: two groups that read the same tensor over the same
// iteration space (elementwise with elementwise, reductions of one family
// with each other), with no path between them, become one multi-output
// kernel that reads the tensor once (`sin(x)` and `cos(x)`; `x.sum(1)` and
// `x.max(1)`). It only removes reads: each output is still written once.
// Upstream linalg has no such grouping (its fusion is producer/consumer),
// so it is kfuse's, run after the producer/consumer merges so that it
// never stands in their way.
//
// The multi-reduction rule joins further: a group of reductions of a
// tensor over its trailing dims (its rows) and one of reductions of the
// same tensor over its leading dims (its columns), each with only
// elementwise ops over its own results besides (and the elementwise ops
// that compute the tensor, in either), become one kernel that reads the
// tensor's inputs once (tinygrad's multireduce; the mapping:
// gpu/rows/MultiReductions.cpp). `x.sum(0)` and `x.sum(1)`, or
// `(x * x).sum(0)` and `(x * x).max(1)`: one kernel.
//
//===----------------------------------------------------------------------===//
#include "passes/fusion/Planner.h"
#include "passes/analysis/AxisReductions.h"
#include "passes/analysis/Views.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "kf-form-kernels"

using namespace mlir;

namespace kfuse::fusion {

/// Whether groups x and y iterate over the same space, so that one launch
/// serves both: elementwise groups whose ops all have one result shape
/// (the flat mapping runs them element by element), reductions of one
/// family with ops over its rows (the row mapping), or such a row kernel
/// and elementwise ops over its rows x columns.
bool Planner::sameSpace(const Group &x, const Group &y) const {
  if (x.matmul || y.matmul || x.hasSmallReduction || y.hasSmallReduction ||
      x.finalReduction || y.finalReduction)
    return false;
  if (x.reduction && y.reduction)
    return sameReduction(*x.reduction, *y.reduction);
  if (x.reduction || y.reduction) {
    // A row kernel and elementwise ops over its rows x columns (`x.sum(1)`
    // and `exp(x)`): its block owns the rows the ops run over, so it reads
    // x once for both (canMerge checks the rows). Not where the rows are
    // the leading dims: a block per column would write the ops' results
    // down the columns. The ops may iterate in another order (`x.sum(1)`
    // and `x.t().contiguous()`, the transposed-epilogue rule): they then
    // write down the columns of their result (the host's row kernel
    // stages 16 rows for that; the GPU's stores them strided).
    const Group &reduction = x.reduction ? x : y, &pointwise = x.reduction ? y : x;
    const Node &r = g.nodes[*reduction.reduction];
    return r.reducesTrailingLoops && !pointwise.multiReduction &&
           llvm::all_of(pointwise.nodes, [&](unsigned n) {
             return g.nodes[n].kind != KernelKind::Reduction && permutes(domainOf(n), r.domain);
           });
  }
  const Node &first = g.nodes[x.nodes.front()];
  auto sameShape = [&](unsigned n) {
    const Node &node = g.nodes[n];
    return node.domain == first.domain && node.resultShape == first.resultShape;
  };
  return llvm::all_of(x.nodes, sameShape) && llvm::all_of(y.nodes, sameShape);
}

void Planner::fuseSiblings(FusionPlan &plan) {
  if (!opt.enabled || !opt.sibling)
    return;
  // The nodes that read each tensor, in program order, through views
  // (reshapes and casts of the same elements).
  llvm::MapVector<Value, SmallVector<unsigned>> readers;
  for (auto [n, node] : llvm::enumerate(g.nodes)) {
    if (isolated.alone[n])
      continue;
    for (Value v : cast<linalg::LinalgOp>(node.op).getDpsInputs()) {
      while (Value src = analysis::viewSource(v))
        v = src;
      SmallVector<unsigned> &list = readers[v];
      if (list.empty() || list.back() != n)
        list.push_back(n);
    }
  }
  for (auto &[value, nodes] : readers) {
    // Each reader joins the first earlier reader's group that can take it
    // (a few groups per tensor: linear in practice).
    SmallVector<unsigned> seen;
    for (unsigned n : nodes) {
      bool joined = false;
      for (unsigned earlier : seen) {
        unsigned a = groupOf[earlier], b = groupOf[n];
        if (a == b) {
          joined = true;
          break;
        }
        if (!sameSpace(groups[a], groups[b]) ||
            canMerge(a, b).reason != Reason::Fused)
          continue;
        LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] siblings "
                                << g.nodes[earlier].opName << "#" << earlier
                                << " and " << g.nodes[n].opName << "#" << n
                                << " read the same tensor: one kernel\n");
        join(a, b);
        plan.siblings.push_back({earlier, n, value});
        joined = true;
        break;
      }
      if (!joined && seen.size() < 8)
        seen.push_back(n);
    }
  }
}

/// Whether group `gid` is reductions of `input` over one side of `split`
/// (the side, true for rows), elementwise ops over their results, and
/// elementwise ops computing `input` over its elements (a prologue), as
/// the multi-reduction mapping serves them (matchMultiReduction). Nullopt
/// otherwise.
std::optional<bool> Planner::axisFamily(unsigned gid, Value input, unsigned split) const {
  const Group &group = groups[gid];
  if (group.matmul || group.attention || group.finalReduction || group.hasSmallReduction)
    return std::nullopt;
  // The group's nodes that compute `input` (its prologue), found from its
  // producer backwards through the group.
  llvm::SmallDenseSet<unsigned, 8> prologue;
  SmallVector<unsigned> work;
  if (auto it = g.nodeOf.find(input.getDefiningOp()); it != g.nodeOf.end() &&
                                                      groupOf[it->second] == gid)
    work.push_back(it->second);
  while (!work.empty())
    if (unsigned n = work.pop_back_val(); prologue.insert(n).second)
      for (unsigned e : inEdges[n])
        if (groupOf[g.edges[e].producer] == gid)
          work.push_back(g.edges[e].producer);
  const Domain *domain = nullptr; // the reductions'
  for (unsigned n : group.nodes)
    if (g.nodes[n].kind == KernelKind::Reduction)
      domain = &g.nodes[n].domain;
  std::optional<bool> side;
  for (unsigned n : group.nodes) {
    const Node &node = g.nodes[n];
    auto generic = dyn_cast<linalg::GenericOp>(node.op);
    if (!generic || isolated.alone[n] || isolated.noMultiReduction[n])
      return std::nullopt;
    if (prologue.contains(n)) {
      // Elementwise over the input's elements, reading the prologue's
      // values in place.
      if (node.kind != KernelKind::Pointwise || node.view || !domain || !(node.domain == *domain))
        return std::nullopt;
      for (unsigned e : inEdges[n]) {
        const Edge &edge = g.edges[e];
        if (edge.gathered || (groupOf[edge.producer] == gid &&
                              (!edge.direct || !edge.readMap.isIdentity())))
          return std::nullopt;
      }
      continue;
    }
    if (node.kind == KernelKind::Reduction) {
      std::optional<analysis::AxisReduction> axis = analysis::axisReductionOf(generic);
      if (!axis || axis->input != input || axis->split != split ||
          (side && *side != axis->overRows))
        return std::nullopt;
      side = axis->overRows;
      continue;
    }
    // An epilogue: it reads the group's values at their own elements, and
    // nothing another kernel computes.
    if (node.kind != KernelKind::Pointwise || node.view)
      return std::nullopt;
    bool readsGroup = false;
    for (const Edge &e : g.edges) {
      if (e.consumer != n)
        continue;
      if (groupOf[e.producer] != gid || !e.direct || e.gathered || !e.readMap.isIdentity())
        return std::nullopt;
      readsGroup = true;
    }
    if (!readsGroup)
      return std::nullopt; // an op before the reductions
  }
  return side;
}

void Planner::fuseAcrossAxes(FusionPlan &plan) {
  if (!opt.enabled || !opt.multiReduction)
    return;
  // The reductions of each tensor (read directly), by the split of its
  // dims they reduce on either side of.
  llvm::MapVector<std::pair<Value, unsigned>, SmallVector<unsigned>> readers;
  for (auto [n, node] : llvm::enumerate(g.nodes))
    if (node.kind == KernelKind::Reduction && !isSmallReduction(n))
      if (auto generic = dyn_cast<linalg::GenericOp>(node.op))
        if (std::optional<analysis::AxisReduction> axis = analysis::axisReductionOf(generic))
          readers[{axis->input, axis->split}].push_back(n);
  for (auto &[key, nodes] : readers) {
    auto [input, split] = key;
    // Its groups that qualify, the first of each side.
    std::optional<unsigned> rowsGroup, colsGroup;
    SmallVector<unsigned> others;
    for (unsigned n : nodes) {
      unsigned gid = groupOf[n];
      if (gid == rowsGroup || gid == colsGroup || llvm::is_contained(others, gid))
        continue;
      std::optional<bool> side = axisFamily(gid, input, split);
      if (!side)
        continue;
      std::optional<unsigned> &first = *side ? rowsGroup : colsGroup;
      if (!first)
        first = gid;
      else
        others.push_back(gid);
    }
    if (!rowsGroup || !colsGroup)
      continue;
    unsigned target = std::min(*rowsGroup, *colsGroup);
    others.push_back(std::max(*rowsGroup, *colsGroup));
    unsigned firstRow = groups[*rowsGroup].nodes.front(),
             firstCol = groups[*colsGroup].nodes.front();
    for (unsigned gid : others) {
      Group &x = groups[target], &y = groups[gid];
      if ((opt.maxOps && x.nodes.size() + y.nodes.size() > opt.maxOps) ||
          makesCycle(target, gid))
        continue;
      for (unsigned m : y.nodes)
        groupOf[m] = target;
      x.nodes.insert(x.nodes.end(), y.nodes.begin(), y.nodes.end());
      llvm::sort(x.nodes);
      x.exits.insert(x.exits.end(), y.exits.begin(), y.exits.end());
      llvm::erase_if(x.exits, [&](unsigned s) { return groupOf[s] == target; });
      x.first = std::min(x.first, y.first);
      x.last = std::max(x.last, y.last);
      x.multiReduction = true;
      lastMerged = std::max(lastMerged, x.last);
      y = Group();
    }
    if (!groups[target].multiReduction)
      continue;
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] multi-reduction of one tensor: "
                            << g.nodes[firstRow].opName << "#" << firstRow << " and "
                            << g.nodes[firstCol].opName << "#" << firstCol << "\n");
    plan.siblings.push_back({std::min(firstRow, firstCol), std::max(firstRow, firstCol), input,
                             /*acrossAxes=*/true});
  }
}

} // namespace kfuse::fusion
