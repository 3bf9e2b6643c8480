//===- RowEmitter.cpp - the code one block runs for a row kernel ---------===//
#include "passes/gpu/rows/RowEmitter.h"

using namespace mlir;
using namespace kfuse::gpu::rows;

SmallVector<Value> RowEmitter::ivs(ArrayRef<Value> rowIvs, ArrayRef<Value> colIvs) {
  SmallVector<Value> out;
  unsigned r = 0, c = 0;
  for (bool isRow : layout.isRowDim)
    out.push_back(isRow ? rowIvs[r++] : colIvs[c++]);
  return out;
}

void RowEmitter::loadInputs(linalg::GenericOp op, ArrayRef<Value> loopIvs, IRMapping &mapping) {
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

void RowEmitter::elementwise(linalg::GenericOp op, ArrayRef<Value> loopIvs) {
  IRMapping mapping;
  loadInputs(op, loopIvs, mapping);
  SmallVector<Value> results = cloneBody(b, op, mapping, loopIvs);
  for (auto [v, init] : llvm::zip(results, op.getDpsInitsMutable()))
    memref::StoreOp::create(b, loc, v, init.get(),
                            indices(b, loc, op.getMatchingIndexingMap(&init), loopIvs));
}

Value RowEmitter::partialOf(linalg::GenericOp op, Value identity) {
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

SmallVector<Value> RowEmitter::resultIndex(linalg::GenericOp op) {
  SmallVector<Value> rowIvs = delinearize(b, loc, rowIndex, rowSizes);
  SmallVector<Value> zeros(layout.cols, arith::ConstantIndexOp::create(b, loc, 0));
  return indices(b, loc, op.getMatchingIndexingMap(op.getDpsInitOperand(0)),
                 ivs(rowIvs, zeros));
}

void RowEmitter::reduction(linalg::GenericOp op, Value identity, ValueRange scratch) {
  Value partial = partialOf(op, identity);
  blockCombine(combinerOf(op), partial, identity, scratch, op.getDpsInitOperand(0)->get(),
               resultIndex(op));
}

void RowEmitter::overColumns(linalg::GenericOp op) {
  SmallVector<Value> rowIvs = delinearize(b, loc, rowIndex, rowSizes);
  columns(ValueRange(), [&](ArrayRef<Value> colIvs, ValueRange) {
    elementwise(op, ivs(rowIvs, colIvs));
    return SmallVector<Value>();
  });
}

void RowEmitter::overRow(linalg::GenericOp op) {
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

RowLaunchStart kfuse::gpu::rows::startRowLaunch(OpBuilder &b, Location loc, StringRef name,
                                                ArrayRef<linalg::LinalgOp> ops, Value grid,
                                                Value threads, Value rows,
                                                const RowKernelTail *tail,
                                                const launch::LaunchTarget *combining) {
  SmallVector<Type> shared;
  if (combining)
    for (linalg::LinalgOp op : ops)
      if (isReduction(op))
        llvm::append_range(
            shared, combining->combineScratch(
                        b.getContext(),
                        combinerOf(cast<linalg::GenericOp>(op.getOperation()))->getResult(0).getType()));
  RowLaunchStart start;
  start.numRowShared = shared.size();
  if (tail)
    shared.append(tail->shared.begin(), tail->shared.end());
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  start.launch = buildKernelLaunch(b, loc, name, {grid, one, one, threads, one, one}, shared);
  b.setInsertionPointToStart(&start.launch.getBody().front());
  start.hasRow = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, start.launch.getBlockIds().x,
                            rows),
      false);
  b.setInsertionPointToStart(&start.hasRow.getThenRegion().front());
  return start;
}

RowExtent kfuse::gpu::rows::rowExtentOf(OpBuilder &b, Location loc, linalg::LinalgOp first,
                                        const Layout &layout) {
  RowExtent e;
  for (auto [i, r] : llvm::enumerate(first.createLoopRanges(b, loc))) {
    Value size = getValueOrCreateConstantIndexOp(b, loc, r.size);
    (layout.isRowDim[i] ? e.rowSizes : e.colSizes).push_back(size);
  }
  e.one = arith::ConstantIndexOp::create(b, loc, 1);
  e.rows = product(b, loc, e.rowSizes);
  e.cols = product(b, loc, e.colSizes);
  e.grid = arith::MaxUIOp::create(b, loc, e.rows, e.one);
  return e;
}
