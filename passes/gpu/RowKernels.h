//===- RowKernels.h - reduction kernels, one block per row ------*- C++ -*-===//
#ifndef KFUSE_PASSES_GPU_ROWKERNELS_H
#define KFUSE_PASSES_GPU_ROWKERNELS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <string>

namespace kfuse::gpu {

/// A row kernel: linalg ops over the same rows (the parallel loops of its
/// reductions) and columns (their reduction loops), in program order:
/// reductions with their initializing fills, elementwise ops over rows x
/// columns (prologues, epilogues) and elementwise ops over rows. One block
/// computes one row. Checked on tensors (kf-tag-gpu-kernels) and on
/// buffers (kf-map-kernels-to-gpu); `why` says what does not fit.
/// A dynamic size matches only a dynamic
/// one here (the mapping, later, accepts what canonicalization made static).
bool isRowKernel(llvm::ArrayRef<mlir::linalg::LinalgOp> ops, std::string &why);

/// Replaces the (bufferized) ops of a row kernel by one gpu.launch: a block
/// per row, threads striding over the columns; a reduction combines each
/// thread's partial with warp shuffles, then across warps through shared
/// memory. With `host`, one thread a block and no cross-thread step (the
/// host runtime runs blocks on its cores).
mlir::LogicalResult mapRowKernel(llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                                 unsigned blockSize, bool host);

/// The op combining a reduction's accumulator with a value, or null.
mlir::Operation *combinerOf(mlir::linalg::GenericOp op);

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_ROWKERNELS_H
