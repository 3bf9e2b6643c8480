//===- HostRowEmitter.h - vector passes over a row on a CPU core -*- C++ -*-===//
//
// The host mappings of row kernels (HostRows.cpp) and full reductions
// (HostReductions.cpp) share one piece: a *pass* over a contiguous range of
// one row's columns (the innermost loop, unit stride), in vectors of
// rowLanes lanes (16 f32 in an AVX-512 register, else 8) with a masked
// tail. A pass runs the
// elementwise ops of the kernel that follow one another and the reduction
// that ends them, in one loop: a value an op computes reaches the next ops
// in registers (it is stored only when something else reads it later), so
// softmax's exp and its sum read the row once.
//
// Upstream's linalg vectorizer maps one op at a time (its result goes to
// memory, and it does not know the row loop of a kernel); this emitter
// works on the kernel's ops together, which is what fusion needs here.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_HOST_MAPPINGS_HOSTROWEMITTER_H
#define KFUSE_PASSES_HOST_MAPPINGS_HOSTROWEMITTER_H

#include "passes/gpu/rows/RowEmitter.h"
#include "passes/host/mappings/VectorCloner.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace kfuse::host::rows {

using namespace mlir;
using gpu::rows::Layout;

/// Lanes of a vector: 8 (32-bit: one AVX2 register; f64 takes two, f16
/// half of one). One width for every type keeps a body's ops lane-aligned.
/// Full reductions take these; row kernels take rowLanes.
constexpr int64_t kLanes = 8;

/// Vectors a reduction's main loop takes per iteration: four independent
/// accumulators (max, min) or one compensated step per 32 elements (sums),
/// enough to hide the add latency.
constexpr int64_t kUnroll = 4;

/// The ops of a kernel grouped into passes: elementwise ops over rows x
/// columns, optionally ended by a reduction; or one op over the row
/// (scalar, `rowOp`).
struct Pass {
  SmallVector<linalg::GenericOp> elementwise;
  linalg::GenericOp reduction;
  linalg::GenericOp rowOp;
};

/// The lanes of a row pass's vectors on registers of `vectorBits`: 16
/// where they are 512 bits and no value of the pass's reduction (of its
/// elementwise ops when it has none) is wider than 32 bits
/// (a softmax over rows of 64 in 4 AVX-512 registers: half the
/// instructions of 8 lanes on a Zen 4, whose 512-bit ops take the same
/// time as two of 256; BERT's softmaxes 93 -> 72 us), else kLanes: 16
/// lanes of f64 (layer_norm's moments) take two registers a vector and
/// ran 7% slower; and rows of a known length under 64 that is not a
/// multiple of 16, whose masked last vector would waste more of 16 lanes
/// (HF ViT's softmax over 17 keys: 21.6 -> 23.4 us at 16). The
/// reduction, not the kernel: its lanes (its order of additions) depend
/// on it alone, so that a sum's bits do not depend on what fusion put
/// beside it (the unfused and fused runs agree bit for bit:
/// test/Runtime/check-float64.mlir).
int64_t rowLanes(const Pass &pass, unsigned vectorBits, std::optional<int64_t> staticCols);

/// The kernel's generics (fills dropped: every reduction starts from its
/// identity) in passes, program order.
SmallVector<Pass> passesOf(ArrayRef<linalg::LinalgOp> ops, const Layout &layout);

/// Whether the vector passes can run `ops`: one column loop, innermost;
/// every access along it unit-stride and last; bodies of elementwise
/// arith/math ops; no i1 buffers (vector<8xi1> would be read as bits).
/// `why` says what does not fit (for the fallback's comment in tests).
bool isVectorizable(ArrayRef<linalg::LinalgOp> ops, const Layout &layout,
                    std::string *why = nullptr);

/// Buffers the program allocated for a full-rank result of the kernel
/// that only the kernel reads, each element in the same row after it is
/// written (identity maps): softmax's exp, layer_norm's x - mean. Their
/// values live one row at a time; the mapping gives each block one row
/// of scratch instead (in cache), so the whole buffer never goes to
/// memory.
SmallVector<Value> rowLocalBuffers(ArrayRef<linalg::LinalgOp> ops, const Layout &layout);

/// The results the kernel's elementwise ops write through a permutation
/// that does not put the columns last (a transposed epilogue:
/// `x.softmax(1).t()`), with their maps: a row's values are a column of
/// the buffer, so HostRows.cpp stages a group of rows in scratch and
/// writes them out a cache line at a time.
SmallVector<std::pair<Value, AffineMap>> transposedOutputs(ArrayRef<linalg::LinalgOp> ops,
                                                           const Layout &layout);

/// The row-local buffers that a later pass recomputes where it reads them,
/// each with the op that writes it, instead of a scratch row: buffers
/// written by one elementwise op of a few cheap arith ops (casts, +, -, *,
/// comparisons, selects: no division, no math function) from the kernel's
/// inputs, values of the row and other such buffers. layer_norm's x - mean
/// in a second pass, the f64 copy of an f32 row that moments read twice:
/// an extf or a subf costs less than storing the value (8 bytes an element
/// in f64) and loading it back. Never stored: the writer's own pass keeps
/// the value in registers for its later ops.
DenseMap<Value, linalg::GenericOp> recomputableBuffers(ArrayRef<linalg::LinalgOp> ops,
                                                       const Layout &layout);


/// Emits vector passes for one row (or one block's chunk of a full
/// reduction) at `b`.
class HostRowEmitter {
public:
  HostRowEmitter(OpBuilder &b, Location loc, const Layout &layout,
                 ArrayRef<linalg::LinalgOp> kernelOps, int64_t lanes)
      : lanes(lanes), b(b), loc(loc), layout(layout), kernelOps(kernelOps) {}

  /// The lanes of every vector this emitter makes (kLanes or rowLanes).
  const int64_t lanes;

  /// This row's loop indices (row dims, in order).
  SmallVector<Value> rowIvs;

  /// Row-local buffers (see rowLocalBuffers) and their scratch rows:
  /// `scratch[buffer]` is a [blocks, columns] buffer whose row
  /// `scratchRow` (this block's) holds this row's values.
  DenseMap<Value, Value> scratch;
  Value scratchRow;
  /// Buffers recomputed where they are read (recomputableBuffers).
  DenseMap<Value, linalg::GenericOp> recompute;

  /// Runs `pass` over columns [begin, end); returns the reduction's value
  /// (of its result type), or null when the pass has none.
  Value run(const Pass &pass, Value begin, Value end) {
    return runRows({this}, pass, begin, end, kUnroll)[0];
  }

  /// Runs `pass` over columns [begin, end) for each of `rows` (emitters of
  /// rows of one block) in the same loops: each step runs every row's
  /// vectors, so that the dependent ops of one row (a sum's adds, an exp,
  /// the lanes' tree) interleave with the others' where one short row
  /// alone left the core waiting on latency. A reduction other than a
  /// compensated sum keeps `accumulators` vectors a row (the main loop's
  /// kUnroll vectors go to them in turn: kUnroll for one row, fewer for
  /// several, whose rows give the parallelism). Returns each row's value.
  static SmallVector<Value> runRows(ArrayRef<HostRowEmitter *> rows, const Pass &pass,
                                    Value begin, Value end, int64_t accumulators);

  /// The full loop indices of (row, column c).
  SmallVector<Value> ivs(Value c);

private:
  struct Accumulator;
  /// The values of one vector of columns from `c` (`mask`: which lanes
  /// are columns; null when all are): stores what must be stored and
  /// returns the reduction's term, or null.
  Value body(const Pass &pass, Value c, Value mask, const DenseSet<Value> &privateBuffers,
             const IRMapping &rowValues);
  /// The writers of recomputed buffers that `ops` read, transitively, in
  /// program order (their row values are loaded before the loops).
  SmallVector<linalg::GenericOp> recomputedFor(ArrayRef<linalg::GenericOp> ops);
  SmallVector<Value> vectorizeBody(linalg::GenericOp op, IRMapping &m, Value c);
  Value broadcast(Value v);
  Value gather(Value buffer, AffineMap map, ArrayRef<Value> index, Value mask, VectorType type);
  VectorType vectorOf(Type t) { return VectorType::get({lanes}, t); }

  OpBuilder &b;
  Location loc;
  const Layout &layout;
  ArrayRef<linalg::LinalgOp> kernelOps;
};

} // namespace kfuse::host::rows

namespace kfuse::host {

/// Runs one pass of a row kernel for flat rows `rows` over columns [begin,
/// end) (of `cols`), together (HostRowEmitter::runRows, with
/// `accumulators` a row), each row's values in its scratch row
/// (`scratchRows`, one a row), storing a reduction's value at each row's
/// element, on vector registers of `vectorBits` (rowLanes).
void runRowPass(mlir::OpBuilder &b, mlir::Location loc, const rows::Layout &layout,
                llvm::ArrayRef<mlir::linalg::LinalgOp> ops, const rows::Pass &pass,
                llvm::ArrayRef<mlir::Value> rowSizes, llvm::ArrayRef<mlir::Value> colSizes,
                llvm::ArrayRef<mlir::Value> rows, mlir::Value begin, mlir::Value end,
                mlir::Value cols, const llvm::DenseMap<mlir::Value, mlir::Value> &scratch,
                llvm::ArrayRef<mlir::Value> scratchRows,
                const llvm::DenseMap<mlir::Value, mlir::linalg::GenericOp> &recompute,
                unsigned vectorBits, int64_t accumulators = rows::kUnroll);

} // namespace kfuse::host

#endif // KFUSE_PASSES_HOST_MAPPINGS_HOSTROWEMITTER_H
