//===- KernelRegions.h - kernels as kf.kernel regions, bodies merged -*- C++ -*-===//
#ifndef KFUSE_PASSES_FUSION_KERNELREGIONS_H
#define KFUSE_PASSES_FUSION_KERNELREGIONS_H

#include "dialect/Kf/KfOps.h"
#include "passes/fusion/FusionPolicy.h"

namespace kfuse::fusion {

/// The kernel that holds each graph node, once regions exist.
struct FormedKernels {
  /// In the order they were named; null for a kernel nothing reads (its
  /// ops recomputed by every reader), erased once formed.
  std::vector<kf::KernelOp> kernels;
  std::vector<std::string> names;      // each kernel's, erased ones too
  std::vector<unsigned> kernelOfNode;  // node -> index in `kernels`
};

/// Applies `plan` to the function `graph` was built from: clones the
/// recomputed producers into their consumers, then wraps each group in a
/// kf.kernel named `<kind>_<ops>_<index>` with `index` counted from
/// `nextIndex` (bumped), in the order of their last members. Reports an
/// error and fails if the kernels cannot be ordered (a cycle, which the
/// plan rules out).
mlir::FailureOr<FormedKernels> formKernelRegions(mlir::func::FuncOp func,
                                                 const KernelGraph &graph,
                                                 const FusionPlan &plan,
                                                 unsigned &nextIndex);

/// In each reduction kernel under `root`, an elementwise op that reads
/// what the kernel wrote through a permutation of its loops
/// (`x.sum(2).t().exp()`, reading row [j, i]'s value at [i, j];
/// `x.softmax(1).t().contiguous()`, over [j, i] reading [i, j])
/// iterates in the reduction's order instead (upstream's
/// linalg::interchangeGenericOp): it reads each row's value in place and
/// writes its result through the permutation, as the row mapping computes
/// it, the row's block computing the element of its row. Later ops
/// follow where it wrote (a value written [j, i] read at [j, i]).
void readRowValuesInRowOrder(mlir::Operation *root);

// KernelBodies.cpp

/// Runs of at least this many elementwise ops are merged by
/// mergeElementwiseRuns; shorter ones by upstream's pairwise fusion.
constexpr unsigned kMinElementwiseRun = 16;

/// Merges each run of at least kMinElementwiseRun elementwise
/// linalg.generic ops of `kernelBody` (all loops parallel, the same loop
/// sizes, results indexed in loop order, and every read of another op of
/// the run in loop order) into one linalg.generic whose body computes each
/// op once, in program order, and that returns the values read after the
/// run. Ops that neither read the run nor are of it may stand between its
/// ops. Time and body size are linear in the run.
void mergeElementwiseRuns(mlir::Block &kernelBody);

/// Merges the linalg ops of each kf.kernel under `root` (not an attention
/// kernel's, whose mapping reads its ops one by one): shared producers
/// read elsewhere copied into their readers, long elementwise runs, then
/// upstream elementwise fusion; then readRowValuesInRowOrder.
mlir::LogicalResult mergeKernelBodies(mlir::Operation *root);


} // namespace kfuse::fusion

#endif // KFUSE_PASSES_FUSION_KERNELREGIONS_H
