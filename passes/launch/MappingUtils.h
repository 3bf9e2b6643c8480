//===- MappingUtils.h - index math shared by the GPU mappings ---*- C++ -*-===//
#ifndef KFUSE_PASSES_LAUNCH_MAPPINGUTILS_H
#define KFUSE_PASSES_LAUNCH_MAPPINGUTILS_H

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"

namespace kfuse::gpu {

/// The module every kernel of a program is outlined into (one PTX module).
inline constexpr llvm::StringLiteral kKernelModule = "kfuse_kernels";

/// Grid and block sizes of a launch, x to z.
struct LaunchGeometry {
  mlir::Value gridX, gridY, gridZ;
  mlir::Value blockX, blockY, blockZ;
};

/// The gpu.launch of kernel `name` in @kfuse_kernels, its body empty, with
/// `workgroup` buffers (shared memory): the one place the mappings build
/// their launches (gpu::LaunchOp::create takes 16 positional arguments).
mlir::gpu::LaunchOp buildKernelLaunch(mlir::OpBuilder &b, mlir::Location loc,
                                      llvm::StringRef name,
                                      const LaunchGeometry &geometry,
                                      mlir::TypeRange workgroup = {});

/// The loop indices of flat index `i` over `sizes` (row-major). Not
/// affine::delinearizeIndex: the index is known to be non-negative here, and
/// upstream's lowers (lower-affine) to signed division and remainder with
/// the selects that correct negative values, extra instructions in every
/// thread of a broadcast or row kernel.
inline llvm::SmallVector<mlir::Value> delinearize(mlir::OpBuilder &b, mlir::Location loc,
                                                  mlir::Value i,
                                                  llvm::ArrayRef<mlir::Value> sizes) {
  llvm::SmallVector<mlir::Value> ivs(sizes.size());
  for (int64_t d = (int64_t)sizes.size() - 1; d >= 0; --d) {
    if (d == 0) {
      ivs[d] = i;
      break;
    }
    ivs[d] = mlir::arith::RemUIOp::create(b, loc, i, sizes[d]);
    i = mlir::arith::DivUIOp::create(b, loc, i, sizes[d]);
  }
  return ivs;
}

/// Indices of `map` applied to the loop indices.
inline llvm::SmallVector<mlir::Value> indices(mlir::OpBuilder &b, mlir::Location loc,
                                              mlir::AffineMap map, mlir::ValueRange ivs) {
  return *mlir::affine::expandAffineMap(b, loc, map, ivs);
}

/// Clones the body of `op` with `mapping` (block arguments already
/// mapped; linalg.index becomes ivs[dim]); returns the yielded values.
inline llvm::SmallVector<mlir::Value> cloneBody(mlir::OpBuilder &b, mlir::linalg::LinalgOp op,
                                                mlir::IRMapping &mapping,
                                                llvm::ArrayRef<mlir::Value> ivs) {
  mlir::Block &body = op->getRegion(0).front();
  for (mlir::Operation &inner : body.without_terminator()) {
    if (auto index = llvm::dyn_cast<mlir::linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
  llvm::SmallVector<mlir::Value> out;
  for (mlir::Value v : llvm::cast<mlir::linalg::YieldOp>(body.getTerminator()).getValues())
    out.push_back(mapping.lookupOrDefault(v));
  return out;
}

/// The product of `sizes` (1 for none).
inline mlir::Value product(mlir::OpBuilder &b, mlir::Location loc,
                           llvm::ArrayRef<mlir::Value> sizes) {
  mlir::Value n = mlir::arith::ConstantIndexOp::create(b, loc, 1);
  for (mlir::Value s : sizes)
    n = mlir::arith::MulIOp::create(b, loc, n, s);
  return n;
}

/// Ends the body of `launch`.
inline void finishLaunch(mlir::OpBuilder &b, mlir::Location loc, mlir::gpu::LaunchOp launch) {
  b.setInsertionPointToEnd(&launch.getBody().front());
  mlir::gpu::TerminatorOp::create(b, loc);
}

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_LAUNCH_MAPPINGUTILS_H
