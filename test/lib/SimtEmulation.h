//===- SimtEmulation.h - launches with barriers, run on the host -*- C++ -*-===//
#ifndef KFUSE_PASSES_GPU_SIMTEMULATION_H
#define KFUSE_PASSES_GPU_SIMTEMULATION_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace kfuse::gpu {

/// Replaces `launch`, whose threads synchronize (gpu.barrier, gpu.shuffle
/// xor, workgroup memory), by host loops that keep the GPU's semantics: the
/// code between two synchronizations runs for every thread of a block in
/// turn (loop fission at barriers, as MCUDA and POCL do), values that live
/// across a synchronization are kept per thread in arrays, a shuffle reads
/// the other lane's array slot, a loop or branch holding a synchronization
/// runs once for the block (loops must have the same bounds in every
/// thread; a branch is taken per thread through a mask). Blocks run in
/// order, or from the last with `reverseBlocks`. For tests only.
mlir::LogicalResult emulateSynchronizedLaunch(mlir::gpu::LaunchOp launch,
                                              bool reverseBlocks);

/// The block index of iteration `iv` of a loop over `bound` blocks: `iv`,
/// or `bound - 1 - iv` when the blocks run from the last.
mlir::Value blockIndex(mlir::OpBuilder &b, mlir::Location loc, mlir::Value iv,
                       mlir::Value bound, bool reverseBlocks);

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_SIMTEMULATION_H
