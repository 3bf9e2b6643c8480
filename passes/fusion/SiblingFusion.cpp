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
//===----------------------------------------------------------------------===//
#include "passes/fusion/Planner.h"
#include "passes/analysis/Views.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "kf-form-kernels"

using namespace mlir;

namespace kfuse::fusion {

/// Whether groups x and y iterate over the same space, so that one launch
/// serves both: elementwise groups whose ops all have one result shape
/// (the flat mapping runs them element by element), or reductions of one
/// family with ops over its rows (the row mapping).
bool Planner::sameSpace(const Group &x, const Group &y) const {
  if (x.matmul || y.matmul || x.hasSmallReduction || y.hasSmallReduction ||
      x.finalReduction || y.finalReduction)
    return false;
  if (x.reduction || y.reduction)
    return x.reduction && y.reduction && sameReduction(*x.reduction, *y.reduction);
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

} // namespace kfuse::fusion
