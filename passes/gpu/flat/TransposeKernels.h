//===- TransposeKernels.h - transposes through shared-memory tiles -*- C++ -*-===//
#ifndef KFUSE_PASSES_GPU_FLAT_TRANSPOSEKERNELS_H
#define KFUSE_PASSES_GPU_FLAT_TRANSPOSEKERNELS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kfuse::gpu {

/// Whether the (bufferized) generics of a flat kernel read an operand
/// transposed in its last two loops and are served by shared-memory tiles:
/// every op over the same loops (at least two), results written in loop
/// order, inputs read in loop order along the last loop, broadcast over it,
/// or with the last two loops swapped.
bool isTiledTranspose(llvm::ArrayRef<mlir::linalg::GenericOp> ops);

/// Builds, at `b`, the gpu.launch named `name` for such a kernel: a block
/// of 32 x 8 threads per 32 x 32 tile of the last two loops (the loops
/// before them over the grid too), each swapped operand staged through a
/// padded 32 x 33 tile of shared memory, so that reads and writes are
/// coalesced on both sides. The ops are left in place.
void mapTransposeKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                        llvm::ArrayRef<mlir::linalg::GenericOp> ops);

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_FLAT_TRANSPOSEKERNELS_H
