//===- PointwiseKernels.h - pointwise kernels, flat ------------*- C++ -*-===//
#ifndef KFUSE_PASSES_GPU_POINTWISEKERNELS_H
#define KFUSE_PASSES_GPU_POINTWISEKERNELS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kfuse::gpu {

/// Maps the generics of one kernel (in program order, one iteration space,
/// checked by kf-tag-gpu-kernels) to one launch. Each thread computes
/// `vectorWidth` consecutive elements: with vector loads and stores when it
/// has all of them and every access is contiguous, else element by element
/// up to the end (the masked tail). Values one op stores and the next reads
/// at the same element pass in registers.
mlir::LogicalResult
mapPointwiseKernel(llvm::ArrayRef<mlir::linalg::GenericOp> ops,
                   unsigned blockSize, unsigned vectorWidth);

/// Runs the ops of a kernel the flat mapping cannot serve (kf.serial, host
/// CPU only) as one launch of one thread: the ops move into the launch
/// unchanged and become loops later.
void mapSerialKernel(llvm::ArrayRef<mlir::linalg::LinalgOp> ops);

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_POINTWISEKERNELS_H
