//===- KernelRegions.h - kernels as kf.kernel regions -----------*- C++ -*-===//
#ifndef KFUSE_PASSES_FUSION_KERNELREGIONS_H
#define KFUSE_PASSES_FUSION_KERNELREGIONS_H

#include "dialect/Kf/KfOps.h"
#include "passes/fusion/FusionPolicy.h"

namespace kfuse::fusion {

/// The kernel that holds each graph node, once regions exist.
struct FormedKernels {
  std::vector<kf::KernelOp> kernels;   // in program order
  std::vector<unsigned> kernelOfNode;  // node -> index in `kernels`
};

/// Applies `plan` to the function `graph` was built from: clones the
/// recomputed producers into their consumers, then wraps each group in a
/// kf.kernel named `<kind>_<ops>_<index>` with `index` counted from
/// `nextIndex` (bumped). Reports an error and fails when an op between two
/// members both reads and feeds their kernel (the plan's cycle check rules
/// this out for kernel ops; this guards the ops around them).
mlir::FailureOr<FormedKernels> formKernelRegions(mlir::func::FuncOp func,
                                                 const KernelGraph &graph,
                                                 const FusionPlan &plan,
                                                 unsigned &nextIndex);

} // namespace kfuse::fusion

#endif // KFUSE_PASSES_FUSION_KERNELREGIONS_H
