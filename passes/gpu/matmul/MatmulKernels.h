//===- MatmulKernels.h - matmul kernels on the GPU --------------*- C++ -*-===//
#ifndef KFUSE_PASSES_GPU_MATMUL_MATMULKERNELS_H
#define KFUSE_PASSES_GPU_MATMUL_MATMULKERNELS_H

#include "dialect/Kf/KfOps.h"
#include "passes/launch/LaunchTarget.h"
#include "passes/target/GpuTarget.h"

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

/// The design a matmul kernel (its ops, on tensors or buffers; checked by
/// checkMatmulKernel) runs on `target`, chosen once by
/// kf-assign-kernel-mappings: with `Fastest`, on sm_90a the wgmma kernel
/// where it fits (wgmmaFits), else the tensor-core kernel for f16 and bf16
/// operands (and f32 ones with `tf32`) accumulating in f32 on a chip with
/// tensor cores, else the register-tiled SIMT kernel for
/// operands of at least 8 bits, else the reference tile.
kf::KernelVariant chooseMatmulVariant(llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                                      const GpuTarget &target, MatmulDesign design,
                                      bool tf32);

/// Builds, at `b`, the gpu.launch named `name` that runs the (bufferized)
/// ops of a matmul kernel as `variant` (MatmulTensorCore.cpp,
/// MatmulSimt.cpp, MatmulReference.cpp): a block per tile of the result
/// (grid x across its columns, y down its rows, z over the batch), the
/// epilogue computed in registers before the one store. `target` says what
/// a block is: the reference on blocks of one thread (the host runtime)
/// computes its tile with loops, without workgroup memory or barriers; the
/// other variants need cooperating threads. `tiles`: the tensor-core
/// kernel's (null: defaultTensorCoreTiles). The ops are left in place (the
/// caller erases the kernel).
void mapMatmulKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                     llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                     const launch::LaunchTarget &target, kf::KernelVariant variant,
                     kf::MatmulTilesAttr tiles = {});

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_MATMUL_MATMULKERNELS_H
