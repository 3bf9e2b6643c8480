//===- RowKernels.h - reduction kernels, one block per row ------*- C++ -*-===//
#ifndef KFUSE_PASSES_GPU_ROWS_ROWKERNELS_H
#define KFUSE_PASSES_GPU_ROWS_ROWKERNELS_H

#include "dialect/Kf/KfOps.h"
#include "passes/launch/LaunchTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <functional>

namespace kfuse::gpu {

/// How a reduction kernel is launched, always as one launch: a block per
/// row; a full reduction as a grid whose last block combines the blocks'
/// partials; a row kernel followed by a final reduction of all its rows,
/// which the last block runs (both in LastBlockReductions.cpp).
enum class RowLaunch { BlockPerRow, GridReduction, RowChain };

/// A row kernel: linalg ops over the same rows (the parallel loops of its
/// reductions) and columns (their reduction loops), in program order:
/// reductions with their initializing fills, elementwise ops over rows x
/// columns (prologues, epilogues) and elementwise ops over rows. One block
/// computes one row. A row kernel may be followed (in program order: every
/// op over rows first) by a row chain's final part: reductions of all the
/// rows to one value (their non-unit reduced sizes are the rows' non-unit
/// sizes, their parallel loops static 1s) and elementwise ops over unit
/// loops only (that value). Checked once, on
/// tensors (kf-assign-kernel-mappings); a refusal is reported through
/// `refuse` (the reason is streamed into the diagnostic it returns).
mlir::FailureOr<RowLaunch>
checkRowKernel(llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
               llvm::function_ref<mlir::InFlightDiagnostic()> refuse);

/// The form of a row kernel's (or a row chain's) rows on the GPU, chosen
/// once, on tensors: on_chip where the on-chip form follows how its ops
/// read each other (RowOnChip.h: followsOnChip), else through_memory.
kf::KernelVariant chooseRowVariant(llvm::ArrayRef<mlir::linalg::LinalgOp> ops);

/// What a launch runs after its rows (a row chain's final part): extra
/// workgroup buffers, and the code emitted after every block's rows.
struct RowKernelTail {
  llvm::SmallVector<mlir::Type> shared;
  /// Emits at `b` (inside the launch, after the rows, all threads);
  /// `shared` are the tail's workgroup buffers.
  std::function<void(mlir::OpBuilder &b, mlir::gpu::LaunchOp launch,
                     mlir::ValueRange shared)>
      emit;
};

/// Builds, at `b`, the gpu.launch named `name` that runs the (bufferized)
/// ops of a row kernel: a block per row, threads striding over the
/// columns, in the form `variant` names (chooseRowVariant; on_chip needs a
/// target whose threads cooperate); a reduction combines each thread's
/// partial with warp shuffles, then across warps through shared memory.
/// Where a block is one thread (the host runtime, through_memory), that
/// thread runs the row and there is no cross-thread step. The ops are left
/// in place (the caller erases the kernel). Returns the number of rows (the
/// grid is at least 1 block); fails, with a diagnostic, where on_chip's
/// plan does not follow the buffers.
mlir::FailureOr<mlir::Value> mapRowKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                                          llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                                          const launch::LaunchTarget &target,
                                          kf::KernelVariant variant,
                                          const RowKernelTail *tail = nullptr);

/// A full reduction in one launch (GridReduction): blocks stride over the
/// tensor and write their partials; the last block to take a ticket from
/// the counter `ticket` (a memref.global of one i32, 0 between launches)
/// combines them and runs the ops after the reduction.
void mapGridReductionKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                            llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                            const launch::LaunchTarget &target, mlir::FlatSymbolRefAttr ticket);

/// A row kernel and its final reduction in one launch (RowChain): a block
/// per row (in the form `variant` names), then the last block (same
/// ticket) runs the final part.
/// Fails, with a diagnostic, when the ops (on buffers) are no row chain.
mlir::LogicalResult mapRowChainKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                                      llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                                      const launch::LaunchTarget &target,
                                      kf::KernelVariant variant,
                                      mlir::FlatSymbolRefAttr ticket);


/// A multi-reduction kernel (MultiReductions.cpp): reductions of one
/// tensor `input`, each over its dims [split, rank) (over its rows:
/// `x.sum(1)`) or over its dims [0, split) (over its columns: `x.max(0)`),
/// through permutation maps, each from its identity (a fill in the
/// kernel), with both families present; elementwise ops over either
/// family's results, reading them at their own elements (identity maps)
/// and other values from outside the kernel; and the ops that compute
/// `input` in the kernel (its prologue), over its elements in order.
struct MultiReduction {
  mlir::Value input;
  unsigned split = 0;
  struct Member {
    mlir::linalg::GenericOp op;
    bool overRows;
  };
  llvm::SmallVector<Member> reductions, epilogues; // each in program order
  llvm::SmallVector<mlir::linalg::GenericOp> prologue; // in program order
};

/// The kernel `ops` (on tensors or buffers, in program order) as a
/// multi-reduction, or nullopt.
std::optional<MultiReduction> matchMultiReduction(llvm::ArrayRef<mlir::linalg::LinalgOp> ops);

/// A multi-reduction (`multi_reduction`) in one launch: a block per band
/// of rows, the rows' reductions combined across the block, each column's
/// partial for the band kept in global memory; the last block to take a
/// ticket from `ticket` combines the partials and runs the ops over the
/// columns. Fails, with a diagnostic, when the ops are no multi-reduction.
mlir::LogicalResult mapMultiReductionKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                                            llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                                            const launch::LaunchTarget &target,
                                            mlir::FlatSymbolRefAttr ticket);

/// The op combining a reduction's accumulator with a value, or null.
mlir::Operation *combinerOf(mlir::linalg::GenericOp op);

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_ROWS_ROWKERNELS_H
