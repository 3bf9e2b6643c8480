//===- RowOnChip.cpp - a block per row, the row in registers --------------===//
//
// Two forms of the same evaluation (RowOnChip.h):
// - registers (the row fits): thread t holds the vectors t, t + T, ... of
//   the row (V elements each, coalesced; `per` elements, a compile-time
//   bucket); each op's values stay in registers across the reductions,
//   each input element is loaded once, each result element stored once.
// - looped (it does not fit): each reduction and each stored result is a
//   pass over the row in which the ops it needs are recomputed from the
//   kernel's inputs (global reads: one a pass, no intermediate traffic).
//   A softmax's max and sum, a layer_norm's mean and variance, take one
//   pass (RowOnChipOnline.cpp: online softmax, Welford).
// A dynamic row chooses at run time: registers when blockDim * 16
// elements cover it, the loop otherwise. Reductions: each thread's
// partial, warp shuffles, the warps' values through shared memory, every
// thread reading the total (no second barrier: each reduction has its
// own 32 slots).
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/rows/RowOnChipEmitter.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace kfuse::gpu::rows {

SmallVector<Value> OnChip::guarded(Value valid, TypeRange types,
                                   function_ref<SmallVector<Value>()> body) {
  if (!valid)
    return body();
  if (types.empty()) { // the builder added the terminator
    auto branch = scf::IfOp::create(b, loc, valid, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    body();
    return {};
  }
  auto branch = scf::IfOp::create(b, loc, types, valid, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    scf::YieldOp::create(b, loc, body());
    b.setInsertionPointToStart(&branch.getElseRegion().front());
    SmallVector<Value> zeros;
    for (Type t : types)
      zeros.push_back(arith::ConstantOp::create(b, loc, t, b.getZeroAttr(t)));
    scf::YieldOp::create(b, loc, zeros);
  }
  return SmallVector<Value>(branch.getResults());
}

Slot OnChip::slot(Value first, Value valid) {
  Slot s;
  s.valid = valid;
  for (unsigned l = 0; l < plan.vector; ++l) {
    Value flat = l ? arith::AddIOp::create(b, loc, first, constant(l)).getResult() : first;
    s.ivs.push_back(emit.ivs(rowIvs, delinearize(b, loc, flat, colSizes)));
  }
  return s;
}

bool OnChip::vectorizable(AffineMap map, MemRefType type) const {
  unsigned n = layout.isRowDim.size();
  if (plan.vector == 1 || map.getNumDims() != n || map.getNumResults() == 0 ||
      !type.getLayout().isIdentity() || ShapedType::isDynamic(type.getShape().back()) ||
      type.getShape().back() % plan.vector)
    return false;
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!last || last.getPosition() != n - 1)
    return false;
  return llvm::none_of(map.getResults().drop_back(),
                       [&](AffineExpr e) { return e.isFunctionOfDim(n - 1); });
}

IntegerAttr OnChip::alignment(Type element) {
  unsigned bytes = element.getIntOrFloatBitWidth() / 8 * plan.vector;
  return b.getI64IntegerAttr(std::min(bytes, 16u));
}

SmallVector<Value> OnChip::load(OpOperand *input, AffineMap map, Slot &s, Memo &memo) {
  Value buffer = input->get();
  auto key = std::make_pair(buffer.getAsOpaquePointer(), map.getAsOpaquePointer());
  if (auto it = memo.loads.find(key); it != memo.loads.end())
    return it->second;
  auto type = cast<MemRefType>(buffer.getType());
  Type element = type.getElementType();
  SmallVector<Value> lanes;
  if (vectorizable(map, type)) {
    auto vectorType = VectorType::get({plan.vector}, element);
    Value v = guarded(s.valid, vectorType, [&]() -> SmallVector<Value> {
      auto load = vector::LoadOp::create(b, loc, vectorType, buffer,
                                         indices(b, loc, map, s.ivs[0]));
      load->setAttr("alignment", alignment(element));
      return {load};
    })[0];
    // Scalars from here on: the emulation keeps per-thread values across
    // barriers as scalars.
    for (unsigned l = 0; l < plan.vector; ++l)
      lanes.push_back(vector::ExtractOp::create(b, loc, v, int64_t(l)));
  } else {
    lanes = guarded(s.valid, SmallVector<Type>(plan.vector, element), [&]() {
      SmallVector<Value> out;
      for (unsigned l = 0; l < plan.vector; ++l)
        out.push_back(memref::LoadOp::create(b, loc, buffer, indices(b, loc, map, s.ivs[l])));
      return out;
    });
  }
  return memo.loads[key] = lanes;
}

void OnChip::store(OpOperand &init, AffineMap map, ArrayRef<Value> lanes, Slot &s) {
  Value buffer = init.get();
  auto type = cast<MemRefType>(buffer.getType());
  guarded(s.valid, {}, [&]() -> SmallVector<Value> {
    if (vectorizable(map, type)) {
      Value v = vector::FromElementsOp::create(
          b, loc, VectorType::get({plan.vector}, type.getElementType()), lanes);
      auto st = vector::StoreOp::create(b, loc, v, buffer, indices(b, loc, map, s.ivs[0]));
      st->setAttr("alignment", alignment(type.getElementType()));
    } else {
      for (unsigned l = 0; l < plan.vector; ++l)
        memref::StoreOp::create(b, loc, lanes[l], buffer, indices(b, loc, map, s.ivs[l]));
    }
    return {};
  });
}

SmallVector<Value> OnChip::body(unsigned i, unsigned lane, Slot &s, Memo &memo, Value acc) {
  linalg::LinalgOp op = plan.ops[i];
  Block &block = op->getRegion(0).front();
  IRMapping mapping;
  for (auto [j, input] : llvm::enumerate(op.getDpsInputOperands())) {
    BlockArgument arg = block.getArgument(input->getOperandNumber());
    if (arg.use_empty())
      continue;
    Source src = plan.sources[i][j];
    Value v;
    if (src.op < 0)
      v = load(input, op.getMatchingIndexingMap(input), s, memo)[lane];
    else if (plan.kinds[src.op] == OpKind::Column)
      v = columns(src.op, s, memo)[lane][src.result];
    else
      v = rowValues.lookup(src.op)[src.result];
    mapping.map(arg, v);
  }
  if (acc)
    mapping.map(block.getArguments().back(), acc);
  return cloneBody(b, op, mapping, s.ivs[lane]);
}

ArrayRef<SmallVector<Value>> OnChip::columns(unsigned i, Slot &s, Memo &memo) {
  auto it = memo.columns.find(i);
  if (it == memo.columns.end()) {
    SmallVector<SmallVector<Value>> lanes;
    for (unsigned l = 0; l < plan.vector; ++l)
      lanes.push_back(body(i, l, s, memo, Value()));
    it = memo.columns.try_emplace(i, std::move(lanes)).first;
  }
  return it->second;
}

void OnChip::storeColumns(unsigned i, Slot &s, Memo &memo) {
  ArrayRef<SmallVector<Value>> values = columns(i, s, memo);
  linalg::LinalgOp op = plan.ops[i];
  for (auto [k, init] : llvm::enumerate(op.getDpsInitsMutable())) {
    if (!plan.stores[i][k])
      continue;
    SmallVector<Value> lanes;
    for (const SmallVector<Value> &lane : values)
      lanes.push_back(lane[k]);
    store(init, op.getMatchingIndexingMap(&init), lanes, s);
  }
}

Value OnChip::fold(unsigned i, Slot &s, Memo &memo, Value acc) {
  Value start = acc;
  for (unsigned l = 0; l < plan.vector; ++l)
    acc = body(i, l, s, memo, acc)[0];
  return s.valid ? arith::SelectOp::create(b, loc, s.valid, acc, start).getResult() : acc;
}

Value OnChip::allReduce(Operation *combiner, Value partial, Value identity, Value shared) {
  Value total = emit.warpReduce(combiner, partial);
  if (staticThreads == 32)
    return total; // one warp: the shuffles gave every lane the total
  Value c32 = constant(32), zero = constant(0);
  Value lane = arith::RemUIOp::create(b, loc, tid, c32);
  Value warp = arith::DivUIOp::create(b, loc, tid, c32);
  auto first = scf::IfOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, zero), false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&first.getThenRegion().front());
    memref::StoreOp::create(b, loc, total, shared, ValueRange{warp});
  }
  ::mlir::gpu::BarrierOp::create(b, loc);
  Value warps = arith::DivUIOp::create(b, loc, blockDim, c32);
  Value has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane, warps);
  Value loaded = memref::LoadOp::create(
      b, loc, shared, ValueRange{arith::SelectOp::create(b, loc, has, lane, zero)});
  return emit.warpReduce(combiner,
                         arith::SelectOp::create(b, loc, has, loaded, identity).getResult());
}

void OnChip::onThreadZero(function_ref<void()> body) {
  auto first = scf::IfOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, constant(0)), false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&first.getThenRegion().front());
  body();
}

void OnChip::finishReduction(unsigned i, Value partial, Value identity, Value shared) {
  auto op = cast<linalg::GenericOp>(plan.ops[i].getOperation());
  setRowValue(i, allReduce(combinerOf(op), partial, identity, shared));
}

void OnChip::setRowValue(unsigned i, Value total) {
  auto op = cast<linalg::GenericOp>(plan.ops[i].getOperation());
  rowValues[i] = {total};
  if (plan.stores[i][0])
    onThreadZero([&] {
      memref::StoreOp::create(b, loc, total, op.getDpsInits()[0], emit.resultIndex(op));
    });
}

void OnChip::rowValue(unsigned i) {
  auto op = cast<linalg::GenericOp>(plan.ops[i].getOperation());
  SmallVector<Value> loopIvs = rowIvs;
  if (op.getNumLoops() != layout.rows)
    loopIvs = emit.ivs(rowIvs, SmallVector<Value>(layout.cols, constant(0)));
  Block &block = op.getRegion().front();
  IRMapping mapping;
  for (auto [j, input] : llvm::enumerate(op.getDpsInputOperands())) {
    BlockArgument arg = block.getArgument(input->getOperandNumber());
    if (arg.use_empty())
      continue;
    Source src = plan.sources[i][j];
    mapping.map(arg, src.op >= 0 ? rowValues.lookup(src.op)[src.result]
                                 : memref::LoadOp::create(
                                       b, loc, input->get(),
                                       indices(b, loc, op.getMatchingIndexingMap(input), loopIvs))
                                       .getResult());
  }
  SmallVector<Value> results = cloneBody(b, op, mapping, loopIvs);
  rowValues[i] = results;
  bool anyStore = llvm::any_of(plan.stores[i], [](bool s) { return s; });
  if (anyStore)
    onThreadZero([&] {
      for (auto [k, init] : llvm::enumerate(op.getDpsInitsMutable()))
        if (plan.stores[i][k])
          memref::StoreOp::create(b, loc, results[k], init.get(),
                                  indices(b, loc, op.getMatchingIndexingMap(&init), loopIvs));
    });
}

void OnChip::registers(int64_t perThread, ArrayRef<Value> shared) {
  // Slot j of thread t: the vector (j * T + t) of the row.
  SmallVector<Slot> slots;
  for (int64_t j = 0; j < perThread / plan.vector; ++j) {
    Value vec = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, constant(j), blockDim), tid);
    Value first = arith::MulIOp::create(b, loc, vec, constant(plan.vector));
    Value valid;
    bool inBounds = staticThreads && !ShapedType::isDynamic(plan.staticCols) &&
                    (j + 1) * staticThreads * plan.vector <= plan.staticCols;
    if (!inBounds)
      valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, first, cols);
    slots.push_back(slot(first, valid));
  }
  SmallVector<Memo> memos(slots.size());
  unsigned nextShared = 0;
  for (auto [i, kind] : llvm::enumerate(plan.kinds)) {
    if (kind == OpKind::Column) {
      if (llvm::any_of(plan.stores[i], [](bool s) { return s; }))
        for (auto [s, memo] : llvm::zip(slots, memos))
          storeColumns(i, s, memo);
    } else if (kind == OpKind::Reduction) {
      Value identity = identityOf(i);
      Value acc = identity;
      for (auto [s, memo] : llvm::zip(slots, memos))
        acc = fold(i, s, memo, acc);
      finishReduction(i, acc, identity, shared[nextShared++]);
    } else if (kind == OpKind::RowValue) {
      rowValue(i);
    }
  }
}

Value OnChip::identityOf(unsigned i) {
  auto op = cast<linalg::GenericOp>(plan.ops[i].getOperation());
  return arith::ConstantOp::create(b, loc, initialValue(op, plan.ops).getValue());
}

Value OnChip::constant(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

} // namespace kfuse::gpu::rows
