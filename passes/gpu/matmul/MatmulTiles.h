//===- MatmulTiles.h - the tensor-core matmul's strategy --------*- C++ -*-===//
//
// The tiles of a tensor-core matmul (#kf.matmul_tiles) are chosen once, on
// tensors, by kf-assign-kernel-mappings from the problem's sizes and the
// typed target: a small table (MatmulTiles.cpp), or the tiles a user names
// (`matmul-tiles`, kfuse-compile --matmul-tiles) for a sweep. The emitter
// builds what the attribute says.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_GPU_MATMUL_MATMULTILES_H
#define KFUSE_PASSES_GPU_MATMUL_MATMULTILES_H

#include "dialect/Kf/KfAttrs.h"
#include "passes/target/GpuTarget.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kfuse::gpu {

/// The tiles a kernel of variant tensor_core without recorded tiles runs
/// (hand-written IR): 64 x 64 x 32, 2 x 2 warps, 2 stages, row order.
kf::MatmulTilesAttr defaultTensorCoreTiles(mlir::MLIRContext *ctx);

/// Parses `MxNxK/WMxWN/S` or `MxNxK/WMxWN/S/G` (the block tile, the warps
/// along M and N, the stages, group_m; G defaults to 1); failure with
/// `refuse` told why (the attribute's own checks included).
mlir::FailureOr<kf::MatmulTilesAttr>
parseMatmulTiles(mlir::MLIRContext *ctx, llvm::StringRef spec,
                 llvm::function_ref<void(const llvm::Twine &)> refuse);

/// "MxNxK/WMxWN/S/G", parseMatmulTiles's input.
std::string formatMatmulTiles(kf::MatmulTilesAttr tiles);

/// The tiles of the tensor-core matmul of the kernel `ops` (checked by
/// checkMatmulKernel) on `target`: `chosen` when given (a user's), else
/// the table's for its M, N and K. Failure, with `refuse` told why, when
/// the tiles' shared memory is more than the chip gives a block.
mlir::FailureOr<kf::MatmulTilesAttr>
chooseTensorCoreTiles(llvm::ArrayRef<mlir::linalg::LinalgOp> ops, const GpuTarget &target,
                      kf::MatmulTilesAttr chosen,
                      llvm::function_ref<void(const llvm::Twine &)> refuse);

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_MATMUL_MATMULTILES_H
