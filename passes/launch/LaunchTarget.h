//===- LaunchTarget.h - what a launch's blocks can do, per target -*- C++ -*-===//
//
// Both targets run the same kernels as gpu.launch ops: the GPU as CUDA
// blocks of threads, the host runtime as blocks of one thread spread over
// its cores. The emitters written once for both (the row kernels' form
// through memory, full reductions, row chains) ask a LaunchTarget what a
// block is instead of taking a flag: how many threads it runs, how its
// threads meet (a barrier), how they combine their partials, how the last
// block of a launch finds out it is last. Triton's TargetInfoBase and
// IREE's GPU target attribute answer the same questions for their
// backends.
//
// What only one target has stays out of the interface: the GPU's row on
// chip, its tensor-core matmuls and tiled transposes (gpu/), the host's
// vector loops (host/) are their targets' own emitters, chosen by their
// own pass (kf-map-kernels-to-gpu, kf-map-kernels-to-host).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_LAUNCH_LAUNCHTARGET_H
#define KFUSE_PASSES_LAUNCH_LAUNCHTARGET_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace kfuse::launch {

/// A thread's share of `count` items striding over a launch or a block:
/// items begin, begin + step, ... below end.
struct ThreadShare {
  mlir::Value begin, end, step;
};

class LaunchTarget {
public:
  virtual ~LaunchTarget();

  /// The threads of a block for a mapping that would like `wanted(max)`
  /// threads, `max` this target's most (an index constant). `wanted` is
  /// called only where a block has more than one thread.
  virtual mlir::Value
  threadsPerBlock(mlir::OpBuilder &b, mlir::Location loc,
                  llvm::function_ref<mlir::Value(mlir::Value max)> wanted) const = 0;

  /// Whether a block's threads run together (a warp, shuffles, workgroup
  /// memory): the GPU's emitters that need it (the row on chip) ask.
  virtual bool hasCooperativeThreads() const = 0;

  /// Makes each thread's writes to memory visible to the other threads of
  /// its block (nothing where a block is one thread).
  virtual void barrier(mlir::OpBuilder &b, mlir::Location loc) const = 0;

  /// The workgroup buffers one blockCombine of `type` values needs (to be
  /// given to the launch and passed back to blockCombine).
  virtual llvm::SmallVector<mlir::Type> combineScratch(mlir::MLIRContext *ctx,
                                                       mlir::Type type) const = 0;

  /// Combines the threads' `partial`s of a block with `combiner` (a binary
  /// op whose two operands are the values combined; `identity` its
  /// neutral value); thread 0 (`tid`) stores the total at dest[index].
  virtual void blockCombine(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Operation *combiner, mlir::Value partial,
                            mlir::Value identity, mlir::Value tid, mlir::Value blockDim,
                            mlir::ValueRange scratch, mlir::Value dest,
                            mlir::ValueRange index) const = 0;

  /// The workgroup buffers isLastBlock needs.
  virtual llvm::SmallVector<mlir::Type> lastBlockScratch(mlir::MLIRContext *ctx) const = 0;

  /// Whether this block is the last of the launch's `grid` blocks to get
  /// here (an i1, the same in every thread of the block), taking a ticket
  /// from the counter `ticket` (LastBlockTicket.h). Every thread's writes
  /// before it are visible to the last block after it.
  virtual mlir::Value isLastBlock(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::FlatSymbolRefAttr ticket, mlir::Value tid,
                                  mlir::Value grid, mlir::ValueRange scratch) const = 0;

  /// Elements one block of a full reduction folds (the grid is
  /// ceil(n / this), at most 1024 blocks).
  virtual int64_t gridReductionBlockElements() const = 0;

  /// The share of thread `tid` of block `bid` (`blockDim` threads, `grid`
  /// blocks) of a full reduction's `count` elements.
  virtual ThreadShare gridShare(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bid,
                                mlir::Value grid, mlir::Value tid, mlir::Value blockDim,
                                mlir::Value count) const = 0;
};

/// CUDA blocks of up to `blockSize` threads in warps of 32: threads meet at
/// gpu.barrier and combine through warp shuffles and workgroup memory.
class GpuLaunchTarget final : public LaunchTarget {
public:
  explicit GpuLaunchTarget(unsigned blockSize) : blockSize(blockSize) {}
  mlir::Value
  threadsPerBlock(mlir::OpBuilder &b, mlir::Location loc,
                  llvm::function_ref<mlir::Value(mlir::Value max)> wanted) const override;
  bool hasCooperativeThreads() const override { return true; }
  void barrier(mlir::OpBuilder &b, mlir::Location loc) const override;
  llvm::SmallVector<mlir::Type> combineScratch(mlir::MLIRContext *ctx,
                                               mlir::Type type) const override;
  void blockCombine(mlir::OpBuilder &b, mlir::Location loc, mlir::Operation *combiner,
                    mlir::Value partial, mlir::Value identity, mlir::Value tid,
                    mlir::Value blockDim, mlir::ValueRange scratch, mlir::Value dest,
                    mlir::ValueRange index) const override;
  llvm::SmallVector<mlir::Type> lastBlockScratch(mlir::MLIRContext *ctx) const override;
  mlir::Value isLastBlock(mlir::OpBuilder &b, mlir::Location loc, mlir::FlatSymbolRefAttr ticket,
                          mlir::Value tid, mlir::Value grid,
                          mlir::ValueRange scratch) const override;
  /// Four elements a thread.
  int64_t gridReductionBlockElements() const override { return 4 * blockSize; }
  /// Grid-strided: consecutive threads read consecutive elements.
  ThreadShare gridShare(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bid, mlir::Value grid,
                        mlir::Value tid, mlir::Value blockDim,
                        mlir::Value count) const override;

private:
  unsigned blockSize;
};

/// The host runtime's blocks: one thread each, run on a pool of cores, so
/// a block needs no barrier and its one partial is the block's.
class HostLaunchTarget final : public LaunchTarget {
public:
  mlir::Value
  threadsPerBlock(mlir::OpBuilder &b, mlir::Location loc,
                  llvm::function_ref<mlir::Value(mlir::Value max)> wanted) const override;
  bool hasCooperativeThreads() const override { return false; }
  void barrier(mlir::OpBuilder &, mlir::Location) const override {}
  llvm::SmallVector<mlir::Type> combineScratch(mlir::MLIRContext *, mlir::Type) const override {
    return {};
  }
  void blockCombine(mlir::OpBuilder &b, mlir::Location loc, mlir::Operation *combiner,
                    mlir::Value partial, mlir::Value identity, mlir::Value tid,
                    mlir::Value blockDim, mlir::ValueRange scratch, mlir::Value dest,
                    mlir::ValueRange index) const override;
  llvm::SmallVector<mlir::Type> lastBlockScratch(mlir::MLIRContext *) const override {
    return {};
  }
  mlir::Value isLastBlock(mlir::OpBuilder &b, mlir::Location loc, mlir::FlatSymbolRefAttr ticket,
                          mlir::Value tid, mlir::Value grid,
                          mlir::ValueRange scratch) const override;
  /// As many as a GPU block of 256 threads folds: a core's share is then
  /// large enough that waking it is noise.
  int64_t gridReductionBlockElements() const override { return 4 * 256; }
  /// A contiguous chunk a block: one core walks its cache lines in order.
  ThreadShare gridShare(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bid, mlir::Value grid,
                        mlir::Value tid, mlir::Value blockDim,
                        mlir::Value count) const override;
};

} // namespace kfuse::launch

#endif // KFUSE_PASSES_LAUNCH_LAUNCHTARGET_H
