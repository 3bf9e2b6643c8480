//===- KernelBodies.h - the linalg ops of each kernel merged ----*- C++ -*-===//
#ifndef KFUSE_PASSES_FUSION_KERNELBODIES_H
#define KFUSE_PASSES_FUSION_KERNELBODIES_H

#include "mlir/IR/Block.h"
#include "mlir/Support/LogicalResult.h"

namespace kfuse::fusion {

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

#endif // KFUSE_PASSES_FUSION_KERNELBODIES_H
