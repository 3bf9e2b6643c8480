//===- AttentionKernels.h - softmax(q @ k^T ...) @ v in one launch -*- C++ -*-===//
#ifndef KFUSE_PASSES_GPU_ATTENTION_ATTENTIONKERNELS_H
#define KFUSE_PASSES_GPU_ATTENTION_ATTENTIONKERNELS_H

#include "passes/launch/LaunchTarget.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kfuse::gpu {

/// Whether the (tensor) ops of an attention kernel are one attention
/// (analysis/Attention.h) the launch below computes; `refuse` says why not.
mlir::LogicalResult checkAttentionKernel(llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                                         llvm::function_ref<mlir::InFlightDiagnostic()> refuse);

/// Builds, at `b`, the launch named `name` that computes the (bufferized)
/// attention `ops` without writing its scores: a block per tile of query
/// rows of one batch (grid x over the rows, z over the batch), a query row
/// a thread, its q and its output row in registers. Keys go by in tiles:
/// the tile's k and v are staged in workgroup memory (on the host, in the
/// thread's own buffer), each thread computes its row's scores for the
/// tile (the score ops applied in registers), and an online softmax
/// (FlashAttention's) rescales what it has summed so far by exp(old max -
/// new max). The output row is divided by the sum once, at the end, and
/// stored, through the head merge's permutation when the kernel has one.
/// `target` says what a block is: CUDA threads meeting at barriers, or
/// the host runtime's one thread, which then runs 16 rows inside each
/// tile of 32 keys, on vectors of keys (AttentionHost.cpp). The ops are
/// left in place (the caller erases the kernel). Fails, saying why, when the ops on buffers are no longer the
/// attention that was checked on tensors.
mlir::LogicalResult mapAttentionKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                        llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                        const launch::LaunchTarget &target);

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_ATTENTION_ATTENTIONKERNELS_H
