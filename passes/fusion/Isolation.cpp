//===- Isolation.cpp - keeping apart the ops of a refused kernel ---------===//
//
// After kernels are formed, each is asked whether a mapping serves it
// (MappingQuery.h). The ops of a refused kernel are kept apart and the plan
// is made again: first only the ops whose loops differ from the kernel's
// majority (where it is elementwise), then, if it is refused again, all of
// them. A kernel refused even op by op is let fuse again for good.
//
//===----------------------------------------------------------------------===//
#include "passes/fusion/Isolation.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;

namespace kfuse::fusion {
namespace {

/// The ops of refused kernel `k` to isolate first: in a kernel of
/// elementwise ops (pointwise, views), the ops whose loops differ from the
/// loops of most of its ops (a weight's [C, 1] slice in a depthwise
/// convolution over [N, C, 1, 1]: "its ops iterate over different
/// shapes"); the rest stays one kernel, tried again. Empty where there is
/// no such split (a reduction or matmul kernel, one domain, no majority):
/// then every op of the kernel is isolated. Isolating everything made
/// one odd op of a 97-op depthwise convolution cost 96 more kernels.
SmallVector<unsigned> domainOutliers(const KernelGraph &graph,
                                            const FormedKernels &formed, unsigned k,
                                            const Isolation &isolated) {
  SmallVector<unsigned> members;
  for (auto [n, kernel] : llvm::enumerate(formed.kernelOfNode)) {
    if (kernel != k || isolated.keepFused[n] || isolated.alone[n])
      continue;
    KernelKind kind = graph.nodes[n].kind;
    if (kind != KernelKind::Pointwise && kind != KernelKind::Transpose)
      return {};
    members.push_back(n);
  }
  // The most common domain (the first seen among equals).
  unsigned best = 0, bestCount = 0;
  for (unsigned i = 0; i < members.size(); ++i) {
    unsigned count = llvm::count_if(members, [&](unsigned m) {
      return graph.nodes[m].domain == graph.nodes[members[i]].domain;
    });
    if (count > bestCount)
      best = i, bestCount = count;
  }
  if (members.empty() || 2 * bestCount <= members.size() || bestCount == members.size())
    return {};
  SmallVector<unsigned> outliers;
  for (unsigned m : members)
    if (graph.nodes[m].domain != graph.nodes[members[best]].domain)
      outliers.push_back(m);
  return outliers;
}

} // namespace

/// Marks alone the ops of each fused kernel `query` refuses, with its
/// reason; whether any op was newly marked.
bool isolateUnmappable(const KernelGraph &graph, const FusionPlan &plan,
                              const FormedKernels &formed, Isolation &isolated,
                              const KernelMappingQuery &query) {
  bool changed = false;
  unsigned round = 0;
  for (unsigned r : isolated.round)
    round = std::max(round, r);
  for (auto [k, constKernel] : llvm::enumerate(formed.kernels)) {
    kf::KernelOp kernel = constKernel;
    if (!kernel)
      continue; // dead: erased
    SmallVector<linalg::LinalgOp> ops;
    kernel.getBody().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    std::string why;
    if (succeeded(query(kernel, ops, why)))
      continue;
    if (kernel.getKind() == KernelKind::Attention) {
      // Planned again without the attention rule for these ops.
      for (auto [n, kernelOf] : llvm::enumerate(formed.kernelOfNode))
        if (kernelOf == k && !isolated.noAttention[n])
          isolated.noAttention[n] = changed = true;
      continue;
    }
    bool acrossAxes = false;
    for (auto [n, kernelOf] : llvm::enumerate(formed.kernelOfNode))
      if (kernelOf == k && plan.multiReduction[plan.groupOf[n]] &&
          !isolated.noMultiReduction[n])
        acrossAxes = isolated.noMultiReduction[n] = changed = true;
    if (acrossAxes)
      continue; // planned again without the multi-reduction rule for these
    ++round; // one per refused kernel: its ops are let fuse again together
    SmallVector<unsigned> outliers = domainOutliers(graph, formed, k, isolated);
    for (auto [n, g] : llvm::enumerate(plan.groupOf)) {
      if (formed.kernelOfNode[n] != k || isolated.keepFused[n])
        continue;
      if (!outliers.empty() && !llvm::is_contained(outliers, unsigned(n)))
        continue; // the kernel less its outliers is tried again first
      if (isolated.alone[n]) {
        // Refused even alone: no kernel of its round is better apart.
        unsigned r = isolated.round[n];
        for (unsigned m = 0; m < isolated.alone.size(); ++m)
          if (isolated.alone[m] && isolated.round[m] == r) {
            isolated.alone[m] = false;
            isolated.keepFused[m] = true;
          }
        changed = true;
        continue;
      }
      // A node alone already is what eager runs: nothing to undo.
      bool copiesIn = llvm::any_of(plan.recomputed, [&](unsigned e) {
        return plan.groupOf[graph.edges[e].consumer] == g;
      });
      if (plan.groups[g].size() == 1 && !copiesIn &&
          graph.nodes[n].kind == plan.groupKinds[g])
        continue;
      isolated.alone[n] = true;
      isolated.round[n] = round;
      isolated.why[n] = kernel.getSymName().str() + ": " + why;
      changed = true;
    }
  }
  return changed;
}

} // namespace kfuse::fusion
