//===- RowOnChip.h - row kernels that keep the row on chip ------*- C++ -*-===//
//
// The GPU row mapping (a block per row) without global intermediates: each
// op's values live in registers (the row fits: every thread holds its
// share) or are recomputed from the kernel's inputs in each pass over the
// row (it does not fit). Global memory sees each input read once (or once
// a pass) and each kernel result written once; values the kernel computes
// and nothing outside reads (the exp of a softmax, x - mean of a
// layer_norm) never leave the chip. RowOnChipPlan.cpp reads a bufferized
// kernel (what each op reads, which writes must reach memory, the bucket);
// RowOnChip.cpp emits the register form; RowOnChipLoop.cpp the looped form
// and the launch; RowOnChipOnline.cpp the one-pass statistics of long rows
// (online softmax, Welford).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_GPU_ROWS_ROWONCHIP_H
#define KFUSE_PASSES_GPU_ROWS_ROWONCHIP_H

#include "passes/gpu/rows/RowEmitter.h"

namespace kfuse::gpu::rows {

/// Where an op's input comes from: an earlier op of the kernel (its
/// result `result`), or global memory (op = -1).
struct Source {
  int op = -1;
  unsigned result = 0;
};

/// What an op of the kernel is, for the on-chip mapping.
enum class OpKind { Fill, Column, Reduction, RowValue };

/// A bufferized row kernel as the on-chip mapping sees it.
struct RowPlan {
  mutable SmallVector<linalg::LinalgOp> ops; // op handles: their methods are not const
  SmallVector<OpKind> kinds;
  /// Per op, per DPS input: where its value comes from.
  SmallVector<SmallVector<Source>> sources;
  /// Per op, per result: whether the value must reach global memory (its
  /// buffer is read after the kernel, or by a tail; its last writer).
  SmallVector<SmallVector<bool>> stores;
  /// Elements a vector access moves (1: scalar accesses).
  unsigned vector = 1;
  /// Static columns of a row, or ShapedType::kDynamic.
  int64_t staticCols = 0;
};

/// Reads `ops` (bufferized, a row kernel checked on tensors) into a plan;
/// fails where the buffers alias in a way the mapping does not follow (a
/// view of a written buffer, an input the kernel overwrites). A kernel
/// whose variant is on_chip was chosen so that it does not (followsOnChip);
/// one written so by hand is refused.
FailureOr<RowPlan> planRowKernel(ArrayRef<linalg::LinalgOp> ops, const Layout &layout);

/// Whether the on-chip form serves the row kernel `ops` (on tensors):
/// planRowKernel's checks over SSA values, each value written into a
/// buffer of its own. The choice of kf-assign-kernel-mappings' variant.
bool followsOnChip(ArrayRef<linalg::LinalgOp> ops, const Layout &layout);

/// The register form's limits: at most kMaxPerThread elements a thread,
/// at most kMaxThreads threads (static rows; kMaxDynamicThreads when the
/// row length is known at run time only: no launch bound then, so ptxas
/// may use up to 255 registers a thread).
constexpr int64_t kMaxPerThread = 16;
constexpr int64_t kMaxThreads = 1024;
constexpr int64_t kMaxDynamicThreads = 256;
/// Threads of the looped form (rows that do not fit).
constexpr int64_t kLoopThreads = 512;

/// The block size and elements a thread for a static row of `cols`
/// elements, `vector` a vector: threads the power of two (32 .. 1024)
/// that gives each at most kMaxPerThread elements; per-thread elements a
/// multiple of `vector`. Nullopt when the row does not fit.
std::optional<std::pair<int64_t, int64_t>> registerBucket(int64_t cols, unsigned vector);

/// Emits the launch for `plan` at `b` (see mapRowKernel); returns the rows.
Value emitRowOnChip(OpBuilder &b, StringAttr name, const RowPlan &plan, const Layout &layout,
                    const launch::LaunchTarget &target, const RowKernelTail *tail);

} // namespace kfuse::gpu::rows

#endif // KFUSE_PASSES_GPU_ROWS_ROWONCHIP_H
