//===- MatmulKernels.h - matmul kernels on the GPU --------------*- C++ -*-===//
#ifndef KFUSE_PASSES_GPU_MATMUL_MATMULKERNELS_H
#define KFUSE_PASSES_GPU_MATMUL_MATMULKERNELS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kfuse::gpu {

/// A matmul kernel: a fill, a matmul accumulating into it (linalg.matmul,
/// or the linalg.generic of a batched or batch-broadcast kf.matmul; each
/// operand read as it is or transposed in place, nothing else), and
/// elementwise ops over its result's elements (the epilogue: bias, relu,
/// ...), each reading the kernel's own results only at the element it
/// computes. Checked once, on tensors (kf-assign-kernel-mappings); a
/// refusal is reported through `refuse` (the reason is streamed into the
/// diagnostic it returns).
mlir::LogicalResult checkMatmulKernel(llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                                      llvm::function_ref<mlir::InFlightDiagnostic()> refuse);

/// Which GPU kernel a matmul gets (kf-map-kernels-to-gpu's `matmul`).
enum class MatmulDesign {
  /// The tensor-core kernel where the chip and the types allow, else the
  /// register-tiled SIMT kernel (MatmulSimt.cpp) where it fits.
  Fastest,
  /// The 16x16 shared-memory tile, one output a thread (MatmulReference.cpp).
  Reference,
};

/// Builds, at `b`, the gpu.launch named `name` that runs the (bufferized)
/// ops of a matmul kernel: a block per tile of the result (grid x across
/// its columns, y down its rows, z over the batch), the epilogue computed
/// in registers before the one store. With `host`, the reference's blocks
/// of one thread computing their tile with loops (no shared memory or
/// barriers). The ops are left in place (the caller erases the kernel).
/// With `tensorCores` (the chip has sm_80's mma.sync and cp.async), an
/// f16 or bf16 matmul takes the tensor-core kernel (MatmulTensorCore.cpp),
/// and with `tf32` an f32 one too.
void mapMatmulKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                     llvm::ArrayRef<mlir::linalg::LinalgOp> ops, bool host,
                     MatmulDesign design = MatmulDesign::Fastest, bool tensorCores = false,
                     bool tf32 = false);

/// Whether `chip` (sm_XY) has the tensor-core instructions the matmul
/// kernel uses: mma.sync.m16n8k16 on f16 and bf16, ldmatrix and cp.async
/// (sm_80 and later).
bool hasTensorCores(llvm::StringRef chip);

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_MATMUL_MATMULKERNELS_H
