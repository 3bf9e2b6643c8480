//===- HostMappings.h - kernels mapped for a CPU core per block -*- C++ -*-===//
//
// kf-map-kernels-to-host: the host runtime runs the same kernels as
// the GPU (same boundaries, names, launches and report), but each is built
// for a CPU: a block is one core's share of the work, sized for its caches,
// and its loops are vector code (AVX2 on this machine's CPUs), not the
// GPU's threads run one after the other.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_HOST_MAPPINGS_HOSTMAPPINGS_H
#define KFUSE_PASSES_HOST_MAPPINGS_HOSTMAPPINGS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kfuse::gpu {
class PointwiseBody;
} // namespace kfuse::gpu

namespace kfuse::host {

/// The lanes of the host's vector code: 8 x 32 bits, one AVX2 register.
/// (A narrower CPU splits the LLVM vectors; a wider one runs them as they
/// are.)
constexpr unsigned kVectorBits = 256;

/// A pointwise (flat) kernel: blocks of consecutive elements sized for the
/// caches, each a loop of vector operations with a scalar tail.
mlir::LogicalResult mapPointwiseKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                                       llvm::ArrayRef<mlir::linalg::GenericOp> ops);

/// A kernel that is one kf.cat and nothing else: each input copied to its
/// range of the result (HostCat.cpp); failure for any other kernel.
mlir::LogicalResult mapCatKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                                 llvm::ArrayRef<mlir::linalg::GenericOp> ops);

/// A kernel that is one pad (cats of a constant around one input, fused,
/// on one or more dims, and the ops before it fused too): each row of the
/// result the constant, or the constant around a row of the input or of
/// the value the body computes from the inputs (HostPad.cpp); failure
/// otherwise.
mlir::LogicalResult mapPadKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                                 llvm::ArrayRef<mlir::linalg::GenericOp> ops);

/// Whether a pad of a computed value runs its rows as vectors
/// (HostPad.cpp): inputs read along the last dim in their last index
/// only, contiguous there, and a body VectorBody takes.
bool padRowsAsVectors(mlir::linalg::GenericOp op);

/// Columns [from, from + cols) of the row at `at` of such a pad, inside
/// its box, computed by the kernel's body: vectors of `lanes`, then
/// `scalar` element by element.
void computePadRow(mlir::OpBuilder &b, mlir::Location loc,
                   llvm::ArrayRef<mlir::linalg::GenericOp> ops, llvm::ArrayRef<mlir::Value> at,
                   int64_t from, int64_t cols, unsigned lanes, kfuse::gpu::PointwiseBody &scalar);

/// Copies input[inAt..., j] to result[outAt..., j + colOffset] for j in
/// [0, cols): vectors where both are contiguous along their last dim, then
/// element by element (the cat and pad mappings' rows).
void copyRow(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input, mlir::Value result,
             llvm::ArrayRef<mlir::Value> inAt, llvm::ArrayRef<mlir::Value> outAt,
             int64_t colOffset, mlir::Value cols);

/// A prefix scan along an outer dim (launch/ScanKernels.h's kernel): groups
/// of adjacent lines walked together as vectors (HostScan.cpp); failure
/// for a kernel it does not serve (the shared emitter runs it).
mlir::LogicalResult mapScanKernelAsVectors(mlir::OpBuilder &b, mlir::StringAttr name,
                                           llvm::ArrayRef<mlir::linalg::LinalgOp> ops);

/// A row kernel (block per row on the GPU): rows spread over the cores,
/// each row's passes vectorized while the row stays in cache, on vector
/// registers of `vectorBits` (256 or 512: rows::rowLanes).
void mapRowKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                  llvm::ArrayRef<mlir::linalg::LinalgOp> ops, unsigned vectorBits);

/// A full reduction (grid_reduction): blocks take contiguous chunks of the
/// elements (their number depends on the size only), each a vector pass
/// to one partial; the last block (the `ticket` counter, as on the GPU)
/// combines the partials in block order, so the result does not depend on
/// which core ran what. Kernels the vector passes do not serve keep the
/// scalar mapping.
void mapGridReductionKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                            llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                            mlir::FlatSymbolRefAttr ticket);

/// A matmul kernel: cache-blocked, register-tiled vector code with the
/// epilogue applied to the tile before it is stored; its register tile
/// sized for vector registers of `vectorBits` (256 or 512).
void mapMatmulKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                     llvm::ArrayRef<mlir::linalg::LinalgOp> ops, unsigned vectorBits);

} // namespace kfuse::host

#endif // KFUSE_PASSES_HOST_MAPPINGS_HOSTMAPPINGS_H
