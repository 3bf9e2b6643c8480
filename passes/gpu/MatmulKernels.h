//===- MatmulKernels.h - matmul kernels as shared-memory tiles --*- C++ -*-===//
#ifndef KFUSE_PASSES_GPU_MATMULKERNELS_H
#define KFUSE_PASSES_GPU_MATMULKERNELS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kfuse::gpu {

/// The output tile of a block is kTile x kTile elements.
constexpr int64_t kTile = 16;

/// A matmul kernel: a fill, a 2-D linalg.matmul accumulating into it (each
/// operand read as it is or transposed in place, nothing else), and
/// elementwise ops over its result's elements (the epilogue: bias, relu,
/// ...), each reading the kernel's own results only at the element it
/// computes. Checked once, on tensors (kf-assign-kernel-mappings); a
/// refusal is reported through `refuse` (the reason is streamed into the
/// diagnostic it returns).
mlir::LogicalResult checkMatmulKernel(llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                                      llvm::function_ref<mlir::InFlightDiagnostic()> refuse);

/// Builds, at `b`, the gpu.launch named `name` that runs the (bufferized)
/// ops of a matmul kernel: a block per 16x16 tile of the result, a thread
/// per element, the operands staged through shared memory 16 columns of K
/// at a time (coalesced reads for either layout of each operand); the
/// epilogue is computed in registers before the store. With
/// `host`, a block is one thread computing its tile with loops (no shared
/// memory or barriers). The ops are left in place (the caller erases the
/// kernel).
void mapMatmulKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                     llvm::ArrayRef<mlir::linalg::LinalgOp> ops, bool host);

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_MATMULKERNELS_H
