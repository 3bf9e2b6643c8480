//===- RowKernels.h - reduction kernels, one block per row ------*- C++ -*-===//
#ifndef KFUSE_PASSES_GPU_ROWKERNELS_H
#define KFUSE_PASSES_GPU_ROWKERNELS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kfuse::gpu {

/// How a row kernel is launched: a block per row, or, for a full reduction
/// whose other ops are elementwise before it and over its result after it,
/// two launches (TwoStageReductions.cpp).
enum class RowLaunch { BlockPerRow, TwoStage };

/// A row kernel: linalg ops over the same rows (the parallel loops of its
/// reductions) and columns (their reduction loops), in program order:
/// reductions with their initializing fills, elementwise ops over rows x
/// columns (prologues, epilogues) and elementwise ops over rows. One block
/// computes one row. Checked once, on tensors (kf-assign-kernel-mappings);
/// a refusal is reported through `refuse` (the reason is streamed into the
/// diagnostic it returns).
mlir::FailureOr<RowLaunch>
checkRowKernel(llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
               llvm::function_ref<mlir::InFlightDiagnostic()> refuse);

/// Builds, at `b`, the gpu.launch named `name` that runs the (bufferized)
/// ops of a row kernel: a block per row, threads striding over the
/// columns; a reduction combines each thread's partial with warp shuffles,
/// then across warps through shared memory. With `host`, one thread a
/// block and no cross-thread step (the host runtime runs blocks on its
/// cores). The ops are left in place (the caller erases the kernel).
void mapRowKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                  llvm::ArrayRef<mlir::linalg::LinalgOp> ops, unsigned blockSize,
                  bool host);

/// The same for a full reduction: `<name>_partials`, then `<name>`.
void mapTwoStageKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                       llvm::ArrayRef<mlir::linalg::LinalgOp> ops, unsigned blockSize);

/// The op combining a reduction's accumulator with a value, or null.
mlir::Operation *combinerOf(mlir::linalg::GenericOp op);

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_ROWKERNELS_H
