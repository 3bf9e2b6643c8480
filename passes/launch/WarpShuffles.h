//===- WarpShuffles.h - combining values across a warp's lanes -*- C++ -*-===//
#ifndef KFUSE_PASSES_LAUNCH_WARPSHUFFLES_H
#define KFUSE_PASSES_LAUNCH_WARPSHUFFLES_H

#include "mlir/IR/Builders.h"

namespace kfuse::launch {

/// `combiner` (a binary op) cloned at `b` over `a` and `c`.
mlir::Value combineWith(mlir::OpBuilder &b, mlir::Operation *combiner, mlir::Value a,
                        mlir::Value c);

/// The value of lane `lane xor offset`. Warp shuffles move 32 bits:
/// 16-bit floats and booleans travel widened (exactly), 64-bit values
/// as two halves.
mlir::Value shuffleXor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                       mlir::Value offset, mlir::Value width);

/// Combines `v` across the 32 lanes of each warp (butterfly shuffles).
/// Upstream's ops were considered and are not used (MLIR 22, checked with
/// mlir-opt): convert-gpu-to-nvvm refuses an f32 `gpu.subgroup_reduce`
/// (its expansion to shuffles is only populate functions driven by a test
/// pass), and lowers `gpu.all_reduce` for f32/f64/i32/i64 with the same
/// shuffles and 32 shared slots as here but refuses f16, which row
/// kernels reduce widened; the SIMT emulation would need it too. No GPU
/// has measured either, so nothing favours a switch.
mlir::Value warpReduce(mlir::OpBuilder &b, mlir::Location loc, mlir::Operation *combiner,
                       mlir::Value v);

} // namespace kfuse::launch

#endif // KFUSE_PASSES_LAUNCH_WARPSHUFFLES_H
