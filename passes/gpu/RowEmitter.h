//===- RowEmitter.h - the pieces of the row kernel mappings -----*- C++ -*-===//
//
// Shared by RowKernels.cpp (a block per row) and TwoStageReductions.cpp
// (full reductions in two launches): the layout of a row kernel and the
// code one block runs for each of its ops.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_GPU_ROWEMITTER_H
#define KFUSE_PASSES_GPU_ROWEMITTER_H

#include "passes/gpu/MappingUtils.h"
#include "passes/gpu/RowKernels.h"
#include "passes/lowering/CompensatedSum.h"

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

/// Emits one op of the kernel for block `row` (see mapRowKernel).
class RowEmitter {
public:
  RowEmitter(OpBuilder &b, Location loc, const Layout &layout, bool host)
      : b(b), loc(loc), layout(layout), host(host) {}

  Value tid, blockDim, rowIndex;
  Value colStart, colStep; // this thread's first column and the stride
  SmallVector<Value> rowSizes, colSizes;
  Value cols;

  /// The full loop indices of (row, col).
  SmallVector<Value> ivs(ArrayRef<Value> rowIvs, ArrayRef<Value> colIvs) {
    SmallVector<Value> out;
    unsigned r = 0, c = 0;
    for (bool isRow : layout.isRowDim)
      out.push_back(isRow ? rowIvs[r++] : colIvs[c++]);
    return out;
  }

  /// Loads the inputs of `op` at `ivs` into `mapping`.
  void loadInputs(linalg::GenericOp op, ArrayRef<Value> loopIvs, IRMapping &mapping) {
    Block &body = op.getRegion().front();
    for (OpOperand *input : op.getDpsInputOperands()) {
      BlockArgument arg = body.getArgument(input->getOperandNumber());
      if (arg.use_empty())
        continue;
      mapping.map(arg, memref::LoadOp::create(
                           b, loc, input->get(),
                           indices(b, loc, op.getMatchingIndexingMap(input), loopIvs)));
    }
  }

  /// Computes and stores the element at `loopIvs` of an elementwise op.
  void elementwise(linalg::GenericOp op, ArrayRef<Value> loopIvs) {
    IRMapping mapping;
    loadInputs(op, loopIvs, mapping);
    SmallVector<Value> results = cloneBody(b, op, mapping, loopIvs);
    for (auto [v, init] : llvm::zip(results, op.getDpsInitsMutable()))
      memref::StoreOp::create(b, loc, v, init.get(),
                              indices(b, loc, op.getMatchingIndexingMap(&init), loopIvs));
  }

  /// A loop over this thread's columns: c = tid, tid + blockDim, ...
  template <typename Body>
  scf::ForOp columns(ValueRange inits, Body body) {
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

  Value combine(Operation *combiner, Value a, Value c) {
    IRMapping m;
    m.map(combiner->getOperand(0), a);
    m.map(combiner->getOperand(1), c);
    return b.clone(*combiner, m)->getResult(0);
  }

  /// Combines `v` across the 32 lanes of each warp (butterfly shuffles).
  Value warpReduce(Operation *combiner, Value v) {
    Value width = arith::ConstantIntOp::create(b, loc, 32, 32);
    for (int offset = 16; offset >= 1; offset /= 2) {
      Value off = arith::ConstantIntOp::create(b, loc, offset, 32);
      v = combine(combiner, v, shuffleXor(v, off, width));
    }
    return v;
  }

  /// The value of lane `lane xor offset`. Warp shuffles move 32 bits:
  /// 16-bit floats and booleans travel widened (exactly), 64-bit values
  /// as two halves.
  Value shuffleXor(Value v, Value offset, Value width) {
    auto shuffle = [&](Value x) {
      return ::mlir::gpu::ShuffleOp::create(b, loc, x, offset, width,
                                            ::mlir::gpu::ShuffleMode::XOR)
          .getShuffleResult();
    };
    Type t = v.getType();
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    if (t.getIntOrFloatBitWidth() == 32)
      return shuffle(v);
    if (isa<FloatType>(t) && t.getIntOrFloatBitWidth() < 32)
      return arith::TruncFOp::create(
          b, loc, t, shuffle(arith::ExtFOp::create(b, loc, b.getF32Type(), v)));
    if (t.isInteger() && t.getIntOrFloatBitWidth() < 32)
      return arith::TruncIOp::create(b, loc, t,
                                     shuffle(arith::ExtUIOp::create(b, loc, i32, v)));
    // 64 bits: the low and the high half.
    Value bits = t.isInteger() ? v : arith::BitcastOp::create(b, loc, i64, v).getResult();
    Value c32 = arith::ConstantIntOp::create(b, loc, i64, 32);
    Value lo = shuffle(arith::TruncIOp::create(b, loc, i32, bits));
    Value hi = shuffle(arith::TruncIOp::create(b, loc, i32,
                                               arith::ShRUIOp::create(b, loc, bits, c32)));
    Value joined = arith::OrIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, i64, lo),
        arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, i64, hi), c32));
    return t.isInteger() ? joined : arith::BitcastOp::create(b, loc, t, joined).getResult();
  }

  /// This thread's partial of a reduction over its columns. A float sum is
  /// blocked: runs of kSumBlock of this thread's columns are summed plainly
  /// (one add of latency an element, as before), and each run's sum joins
  /// the partial with a compensated step (lowering/CompensatedSum.h). The
  /// error is then bounded by the run's length, not by the number of
  /// columns a thread folds (a whole row on the host, n / blocks in a full
  /// reduction): 10^8 values of 0.1 sum to within 1.5e-8.
  static constexpr int64_t kSumBlock = 16;

  Value partialOf(linalg::GenericOp op, Value identity) {
    SmallVector<Value> rowIvs = delinearize(b, loc, rowIndex, rowSizes);
    BlockArgument out = op.getRegion().front().getArguments().back();
    // One step of the reduction at column `c` from `acc`.
    auto step = [&](Value c, Value acc) {
      SmallVector<Value> loopIvs = ivs(rowIvs, delinearize(b, loc, c, colSizes));
      IRMapping mapping;
      loadInputs(op, loopIvs, mapping);
      mapping.map(out, acc);
      return cloneBody(b, op, mapping, loopIvs)[0];
    };
    auto loop = [&](Value from, Value to, Value stride, ValueRange inits, auto body) {
      return scf::ForOp::create(
          b, loc, from, to, stride, inits,
          [&](OpBuilder &nested, Location, Value c, ValueRange acc) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
            scf::YieldOp::create(b, loc, body(c, acc));
          });
    };
    if (!isa<arith::AddFOp>(combinerOf(op)))
      return loop(colStart, cols, colStep, identity, [&](Value c, ValueRange acc) {
               return SmallVector<Value>{step(c, acc[0])};
             }).getResult(0);
    Value span = arith::MulIOp::create(
        b, loc, colStep, arith::ConstantIndexOp::create(b, loc, kSumBlock));
    // (sum, lost): the partial and its lost low part, both from 0.
    scf::ForOp runs = loop(colStart, cols, span, {identity, identity},
                           [&](Value first, ValueRange acc) {
      Value end = arith::MinUIOp::create(b, loc, arith::AddIOp::create(b, loc, first, span), cols);
      Value run = loop(first, end, colStep, identity, [&](Value c, ValueRange r) {
                    return SmallVector<Value>{step(c, r[0])};
                  }).getResult(0);
      auto [sum, lost] = lowering::compensatedAdd(b, loc, acc[0], acc[1], run);
      return SmallVector<Value>{sum, lost};
    });
    return arith::SubFOp::create(b, loc, runs.getResult(0), runs.getResult(1));
  }

  /// Where a reduction's value for this block's row goes.
  SmallVector<Value> resultIndex(linalg::GenericOp op) {
    SmallVector<Value> rowIvs = delinearize(b, loc, rowIndex, rowSizes);
    SmallVector<Value> zeros(layout.cols, arith::ConstantIndexOp::create(b, loc, 0));
    return indices(b, loc, op.getMatchingIndexingMap(op.getDpsInitOperand(0)),
                   ivs(rowIvs, zeros));
  }

  /// Combines the threads' partials of a block (warp shuffles, then the
  /// warps' values through shared memory in the first warp); thread 0
  /// stores the total at dest[index].
  void blockCombine(Operation *combiner, Value partial, Value identity, Value shared,
                    Value dest, ValueRange index) {
    Value c32 = arith::ConstantIndexOp::create(b, loc, 32);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value warpValue = warpReduce(combiner, partial);
    Value lane = arith::RemUIOp::create(b, loc, tid, c32);
    Value warp = arith::DivUIOp::create(b, loc, tid, c32);
    auto isLaneZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, zero);
    auto write = scf::IfOp::create(b, loc, isLaneZero, false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&write.getThenRegion().front());
      memref::StoreOp::create(b, loc, warpValue, shared, ValueRange{warp});
    }
    ::mlir::gpu::BarrierOp::create(b, loc);
    Value numWarps = arith::DivUIOp::create(b, loc, blockDim, c32);
    auto isWarpZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warp, zero);
    auto last = scf::IfOp::create(b, loc, isWarpZero, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&last.getThenRegion().front());
    auto hasValue = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid, numWarps);
    // Lanes past the number of warps start from the identity.
    Value safeLane = arith::SelectOp::create(b, loc, hasValue, tid, zero);
    Value loaded = memref::LoadOp::create(b, loc, shared, ValueRange{safeLane});
    Value v = arith::SelectOp::create(b, loc, hasValue, loaded, identity);
    Value total = warpReduce(combiner, v);
    auto isThreadZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero);
    auto store = scf::IfOp::create(b, loc, isThreadZero, false);
    b.setInsertionPointToStart(&store.getThenRegion().front());
    memref::StoreOp::create(b, loc, total, dest, index);
  }

  void reduction(linalg::GenericOp op, Value identity, Value shared) {
    Value partial = partialOf(op, identity);
    Value dest = op.getDpsInitOperand(0)->get();
    SmallVector<Value> index = resultIndex(op);
    if (host) { // one thread: its partial is the row's value
      memref::StoreOp::create(b, loc, partial, dest, index);
      return;
    }
    blockCombine(combinerOf(op), partial, identity, shared, dest, index);
  }

  void overColumns(linalg::GenericOp op) {
    SmallVector<Value> rowIvs = delinearize(b, loc, rowIndex, rowSizes);
    columns(ValueRange(), [&](ArrayRef<Value> colIvs, ValueRange) {
      elementwise(op, ivs(rowIvs, colIvs));
      return SmallVector<Value>();
    });
  }

  void overRow(linalg::GenericOp op) {
    SmallVector<Value> rowIvs = delinearize(b, loc, rowIndex, rowSizes);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    if (op.getNumLoops() != layout.rows) { // rows and unit columns
      SmallVector<Value> zeros(layout.cols, zero);
      rowIvs = ivs(rowIvs, zeros);
    }
    auto first = scf::IfOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&first.getThenRegion().front());
    elementwise(op, rowIvs);
  }

private:
  OpBuilder &b;
  Location loc;
  const Layout &layout;
  bool host;
};

/// The single reduction of a full reduction kernel that takes two launches
/// (TwoStageReductions.cpp), or null.
linalg::GenericOp twoStageReduction(ArrayRef<linalg::LinalgOp> ops, const Layout &layout);
/// Maps such a kernel: `<name>_partials`, then `<name>`.
void mapTwoStage(ArrayRef<linalg::LinalgOp> ops, linalg::GenericOp reduction,
                 const Layout &layout, unsigned blockSize);

} // namespace kfuse::gpu::rows

#endif // KFUSE_PASSES_GPU_ROWEMITTER_H
