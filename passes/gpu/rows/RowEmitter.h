//===- RowEmitter.h - the pieces of the row kernel mappings -----*- C++ -*-===//
//
// Shared by RowKernels.cpp (a block per row) and LastBlockReductions.cpp
// (full reductions and row chains, finished by the last block in the same
// launch): the layout of a row kernel and the code one block runs for each
// of its ops.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_GPU_ROWS_ROWEMITTER_H
#define KFUSE_PASSES_GPU_ROWS_ROWEMITTER_H

#include "passes/gpu/rows/RowKernels.h"
#include "passes/launch/LaunchTarget.h"
#include "passes/launch/MappingUtils.h"
#include "passes/launch/WarpShuffles.h"
#include "passes/utils/CompensatedSum.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kfuse::gpu::rows {

using namespace mlir;

inline bool isReduction(linalg::LinalgOp op) { return op.getNumReductionLoops() > 0; }

/// The value a fill writes, or null.
inline Value filledBuffer(linalg::FillOp fill) {
  return fill.hasPureTensorSemantics() ? fill.getResult(0) : fill.getDpsInits()[0];
}

/// The initial value of a reduction: the constant of the fill, in the
/// kernel, that writes its init.
arith::ConstantOp initialValue(linalg::GenericOp op, ArrayRef<linalg::LinalgOp> ops);

/// Whether the values `ops` write to buffer `v` (a root) may be read after
/// them: `v` is no allocation of the function (an argument: an
/// out-parameter, a global), or something besides `ops` and deallocations
/// reads it or a view of it (RowOnChipPlan.cpp).
bool observed(Value v, const llvm::SmallPtrSetImpl<Operation *> &ops);

/// Whether `value` is the identity of `combine` (combining it changes
/// nothing), so that every thread may start from it.
bool isIdentityOf(Operation *combine, arith::ConstantOp value);

/// The layout of a row kernel: which loops of a full-rank op are rows.
struct Layout {
  SmallVector<bool> isRowDim;
  SmallVector<int64_t> sizes; // static loop sizes of the first reduction
  unsigned rows = 0, cols = 0;

  /// Whether an elementwise op computes one value a row: it loops over the
  /// rows only, or over rows and unit columns (a keepdim value).
  bool isRowOp(linalg::GenericOp op) const {
    if (op.getNumLoops() == rows)
      return true;
    if (op.getNumLoops() != isRowDim.size())
      return false;
    SmallVector<int64_t> loopSizes = op.getStaticLoopRanges();
    for (auto [i, s] : llvm::enumerate(loopSizes)) {
      if (!isRowDim[i] && s != 1)
        return false;
      // The same rows (a reshape can make [27, 1, 1] of [3, 3, 3]).
      if (isRowDim[i] && s != sizes[i] && !ShapedType::isDynamic(s) &&
          !ShapedType::isDynamic(sizes[i]))
        return false;
    }
    return llvm::any_of(llvm::enumerate(sizes), [&](auto e) {
      return !isRowDim[e.index()] && e.value() != 1;
    });
  }
};

/// The layout of a row kernel, read from its first reduction (`first`,
/// null when there is none; checked on tensors by checkRowKernel, trusted
/// on buffers).
Layout layoutOf(ArrayRef<linalg::LinalgOp> ops, linalg::LinalgOp &first);

/// Emits one op of the kernel for block `row` (see mapRowKernel).
class RowEmitter {
public:
  /// `target` says what a block is (one thread on the host): how the
  /// threads of a reduction combine.
  RowEmitter(OpBuilder &b, Location loc, const Layout &layout,
             const launch::LaunchTarget &target)
      : b(b), loc(loc), layout(layout), target(target) {}

  Value tid, blockDim, rowIndex;
  Value colStart, colStep; // this thread's first column and the stride
  SmallVector<Value> rowSizes, colSizes;
  Value cols;

  /// The full loop indices of (row, col).
  SmallVector<Value> ivs(ArrayRef<Value> rowIvs, ArrayRef<Value> colIvs);

  /// Loads the inputs of `op` at `ivs` into `mapping`.
  void loadInputs(linalg::GenericOp op, ArrayRef<Value> loopIvs, IRMapping &mapping);

  /// Computes and stores the element at `loopIvs` of an elementwise op.
  void elementwise(linalg::GenericOp op, ArrayRef<Value> loopIvs);

  /// A loop over this thread's columns: c = tid, tid + blockDim, ...
  template <typename Body>
  scf::ForOp columns(ValueRange inits, Body body);

  Value combine(Operation *combiner, Value a, Value c) {
    return launch::combineWith(b, combiner, a, c);
  }

  /// Combines `v` across the 32 lanes of each warp (WarpShuffles.h).
  Value warpReduce(Operation *combiner, Value v) {
    return launch::warpReduce(b, loc, combiner, v);
  }

  /// The value of lane `lane xor offset` (WarpShuffles.h).
  Value shuffleXor(Value v, Value offset, Value width) {
    return launch::shuffleXor(b, loc, v, offset, width);
  }

  /// This thread's partial of a reduction over its columns. A float sum is
  /// blocked: runs of kSumBlock of this thread's columns are summed plainly
  /// (one add of latency an element, as before), and each run's sum joins
  /// the partial with a compensated step (utils/CompensatedSum.h). The
  /// error is then bounded by the run's length, not by the number of
  /// columns a thread folds (a whole row on the host, n / blocks in a full
  /// reduction): 10^8 values of 0.1 sum to within 1.5e-8.
  static constexpr int64_t kSumBlock = 16;

  Value partialOf(linalg::GenericOp op, Value identity);

  /// Where a reduction's value for this block's row goes.
  SmallVector<Value> resultIndex(linalg::GenericOp op);

  /// Combines the threads' partials of a block (the target's way); thread
  /// 0 stores the total at dest[index].
  void blockCombine(Operation *combiner, Value partial, Value identity, ValueRange scratch,
                    Value dest, ValueRange index) {
    target.blockCombine(b, loc, combiner, partial, identity, tid, blockDim, scratch, dest,
                        index);
  }

  /// A reduction's value for this block's row; `scratch` the workgroup
  /// buffers of its block combine (LaunchTarget::combineScratch).
  void reduction(linalg::GenericOp op, Value identity, ValueRange scratch);

  void overColumns(linalg::GenericOp op);

  void overRow(linalg::GenericOp op);

private:
  OpBuilder &b;
  Location loc;
  const Layout &layout;
  const launch::LaunchTarget &target;
};

template <typename Body>
inline scf::ForOp RowEmitter::columns(ValueRange inits, Body body) {
  return scf::ForOp::create(
      b, loc, colStart, cols, colStep, inits,
      [&](OpBuilder &nested, Location, Value c, ValueRange acc) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
        SmallVector<Value> colIvs = delinearize(b, loc, c, colSizes);
        SmallVector<Value> yielded = body(colIvs, acc);
        scf::YieldOp::create(b, loc, yielded);
      });
}

/// The single reduction of a full reduction kernel (LastBlockReductions.cpp:
/// one launch, the last block combines), or null.
linalg::GenericOp gridReductionOf(ArrayRef<linalg::LinalgOp> ops, const Layout &layout);
/// Maps such a kernel at `b` as one launch `<name>` (the ops are left in
/// place); `ticket` is the kernel's counter (a memref.global).
void mapGridReduction(OpBuilder &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops,
                      linalg::GenericOp reduction, const Layout &layout,
                      const launch::LaunchTarget &target, FlatSymbolRefAttr ticket);

/// A row chain: the ops of its row kernel (without the final part's fills)
/// and its final part (from the final reduction on).
struct ChainSplit {
  SmallVector<linalg::LinalgOp> rowOps, finalOps;
};
/// Splits `ops` at the first reduction, after one over rows, that reduces
/// other loops to one value (its parallel loops, if any, are static 1s);
/// nullopt when there is none.
std::optional<ChainSplit> splitRowChain(ArrayRef<linalg::LinalgOp> ops);
/// Whether the final part of `chain`, after a row kernel of `layout`, is
/// one the last block runs; `refuse` says why not.
LogicalResult checkFinalPart(const ChainSplit &chain, const Layout &layout,
                             function_ref<InFlightDiagnostic()> refuse);

/// The rows and columns of a row kernel whose full-rank op is `first`
/// (products of its row and column loop sizes), and its grid: a block a
/// row, at least one.
struct RowExtent {
  SmallVector<Value> rowSizes, colSizes;
  Value rows, cols, grid, one;
};
RowExtent rowExtentOf(OpBuilder &b, Location loc, linalg::LinalgOp first, const Layout &layout);

/// The start of a block-per-row launch, shared by both row forms
/// (RowKernels.cpp, RowOnChipLoop.cpp): `grid` blocks of `threads`
/// threads, the combine buffers of `combining`'s blocks for each reduction
/// of `ops` (none when null), then the tail's buffers; the builder is left inside
/// `if blockIdx.x < rows` (no rows, a zero-sized tensor: the one block does
/// nothing; the condition is uniform in a block, so the barriers inside
/// stay uniform).
struct RowLaunchStart {
  ::mlir::gpu::LaunchOp launch;
  unsigned numRowShared = 0; // the first attributions: the reductions' buffers
  scf::IfOp hasRow;          // the builder's block: after it, every block
};
RowLaunchStart startRowLaunch(OpBuilder &b, Location loc, StringRef name,
                              ArrayRef<linalg::LinalgOp> ops, Value grid, Value threads,
                              Value rows, const RowKernelTail *tail,
                              const launch::LaunchTarget *combining);

} // namespace kfuse::gpu::rows

#endif // KFUSE_PASSES_GPU_ROWS_ROWEMITTER_H
