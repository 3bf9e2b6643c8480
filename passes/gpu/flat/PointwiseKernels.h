//===- PointwiseKernels.h - pointwise kernels, flat ------------*- C++ -*-===//
#ifndef KFUSE_PASSES_GPU_FLAT_POINTWISEKERNELS_H
#define KFUSE_PASSES_GPU_FLAT_POINTWISEKERNELS_H

#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kfuse::gpu {

/// The most elements a small reduction folds into each result for the flat
/// mapping to unroll it (issue 12: pairwise distances over a last dim of 4).
constexpr int64_t kMaxUnrolledReduction = 8;

/// Whether the flat mapping serves the ops of `kernel` (on tensors):
/// linalg.generics (and fills) over one iteration space, each reading the
/// others' results only at the element it computes; a generic may reduce
/// over static loops of at most kMaxUnrolledReduction elements in all
/// (a small reduction: its fill, itself and pointwise ops over its result).
/// A refusal is reported through `refuse`.
mlir::LogicalResult
checkFlatKernel(kf::KernelOp kernel, llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                llvm::function_ref<mlir::InFlightDiagnostic()> refuse);

/// Builds, at `b`, the gpu.launch named `name` that runs the generics of
/// one kernel (in program order, one iteration space, checked by
/// kf-assign-kernel-mappings; fills as generics). Each thread computes
/// `vectorWidth` consecutive elements of the results (a small reduction's
/// terms unrolled in the CPU loop's order): with vector loads and stores when it
/// has all of them and every access is contiguous, else element by element
/// up to the end (the masked tail). Values one op stores and the next reads
/// at the same element pass in registers. The ops are left in place (the
/// caller erases the kernel).
mlir::LogicalResult
mapPointwiseKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                   llvm::ArrayRef<mlir::linalg::GenericOp> ops,
                   unsigned blockSize, unsigned vectorWidth);

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_FLAT_POINTWISEKERNELS_H
