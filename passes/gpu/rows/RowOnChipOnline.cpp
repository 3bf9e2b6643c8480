//===- RowOnChipOnline.cpp - two reductions in one pass over a long row ---===//
//
// The looped form (rows that do not fit) reads the row once a reduction.
// Two shapes of kernel need only one read for their two reductions:
// - softmax: a max M, then a sum of exp(a - M) (a the max's own terms).
//   Each thread keeps a running max m and sum s of exp(a - m); when m
//   grows, s is rescaled by exp(m_old - m_new) (the online softmax). The
//   threads' (m, s) pairs merge the same way.
// - layer_norm: a sum S of a, then a sum of (a - c)^2, c computed from S
//   alone (the mean, S / N). Each thread keeps its count, mean and sum of
//   squared deviations from its mean (slot by slot, Chan's merge; Welford
//   with a slot's values at once); after the block's S, its own sum about
//   c is M2 + n (mean - c)^2, exactly.
// Anything else keeps a pass per reduction (RowOnChipLoop.cpp).
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/rows/RowOnChipEmitter.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace kfuse::gpu::rows {

namespace {

/// A value of op `op`'s body.
struct At {
  unsigned op;
  Value v;
  bool operator==(const At &o) const { return op == o.op && v == o.v; }
};

Block &bodyOf(const RowPlan &plan, unsigned o) { return plan.ops[o]->getRegion(0).front(); }

/// The input of op `o` that block argument `v` is, or -1.
int inputOf(const RowPlan &plan, unsigned o, Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != &bodyOf(plan, o) ||
      arg.getArgNumber() >= plan.ops[o].getNumDpsInputs())
    return -1;
  return arg.getArgNumber();
}

/// Follows `v` through inputs that column ops of the kernel computed (the
/// value the column op yields, at the same element).
At resolve(const RowPlan &plan, At a) {
  for (int k; (k = inputOf(plan, a.op, a.v)) >= 0;) {
    Source s = plan.sources[a.op][k];
    if (s.op < 0 || plan.kinds[s.op] != OpKind::Column)
      break;
    a = {static_cast<unsigned>(s.op), bodyOf(plan, s.op).getTerminator()->getOperand(s.result)};
  }
  return a;
}

/// The row op whose value `a` is (resolved), or -1.
int rowOf(const RowPlan &plan, At a) {
  int k = inputOf(plan, a.op, a.v);
  if (k < 0)
    return -1;
  Source s = plan.sources[a.op][k];
  return s.op >= 0 && plan.kinds[s.op] != OpKind::Column && s.result == 0 ? s.op : -1;
}

/// What identifies a (resolved) column value: the buffer and map a global
/// input is read through, or the op and value that compute it.
std::pair<const void *, const void *> keyOf(const RowPlan &plan, At a) {
  int k = inputOf(plan, a.op, a.v);
  if (k >= 0 && plan.sources[a.op][k].op < 0) {
    OpOperand *input = plan.ops[a.op].getDpsInputOperand(k);
    return {input->get().getAsOpaquePointer(),
            plan.ops[a.op].getMatchingIndexingMap(input).getAsOpaquePointer()};
  }
  return {plan.ops[a.op].getOperation(), a.v.getAsOpaquePointer()};
}

/// The op of `a.op`'s body defining `a.v`, or null (a block argument, a
/// value from above).
Operation *defIn(const RowPlan &plan, At a) {
  Operation *def = a.v.getDefiningOp();
  return def && plan.ops[a.op]->isProperAncestor(def) ? def : nullptr;
}

/// Whether `a` may depend on row op `r`'s value (or a later row op's).
bool dependsOn(const RowPlan &plan, At a, unsigned r) {
  a = resolve(plan, a);
  if (auto arg = dyn_cast<BlockArgument>(a.v)) {
    if (arg.getOwner() != &bodyOf(plan, a.op))
      return false; // from above the kernel's op
    int k = inputOf(plan, a.op, a.v);
    return k < 0 || plan.sources[a.op][k].op >= static_cast<int>(r);
  }
  Operation *def = defIn(plan, a);
  if (!def)
    return false;
  if (def->getNumRegions())
    return true;
  return llvm::any_of(def->getOperands(),
                      [&](Value x) { return dependsOn(plan, At{a.op, x}, r); });
}

/// Whether `a` is computed from row op `r`'s value, constants and values
/// from above only, by ops without effects (the center of a variance).
bool fromRowOnly(const RowPlan &plan, At a, unsigned r) {
  a = resolve(plan, a);
  if (isa<BlockArgument>(a.v))
    return rowOf(plan, a) == static_cast<int>(r) ||
           cast<BlockArgument>(a.v).getOwner() != &bodyOf(plan, a.op);
  Operation *def = defIn(plan, a);
  if (!def)
    return true;
  if (def->getNumRegions() || !isPure(def) || def->getNumResults() != 1)
    return false;
  return llvm::all_of(def->getOperands(),
                      [&](Value x) { return fromRowOnly(plan, At{a.op, x}, r); });
}

/// The term a reduction adds to its accumulator.
Value termOf(linalg::LinalgOp op) {
  Operation *combine = combinerOf(cast<linalg::GenericOp>(op.getOperation()));
  Value out = op->getRegion(0).front().getArguments().back();
  return combine->getOperand(0) == out ? combine->getOperand(1) : combine->getOperand(0);
}

} // namespace

std::optional<OnlinePair> findOnlinePair(const RowPlan &plan, unsigned i) {
  if (plan.kinds[i] != OpKind::Reduction)
    return std::nullopt;
  unsigned j = i + 1;
  while (j < plan.kinds.size() &&
         (plan.kinds[j] == OpKind::Column || plan.kinds[j] == OpKind::Fill))
    ++j;
  if (j == plan.kinds.size() || plan.kinds[j] != OpKind::Reduction)
    return std::nullopt;
  Operation *first = combinerOf(cast<linalg::GenericOp>(plan.ops[i].getOperation()));
  Operation *second = combinerOf(cast<linalg::GenericOp>(plan.ops[j].getOperation()));
  Type type = first->getResult(0).getType();
  if (!isa<arith::AddFOp>(second) || second->getResult(0).getType() != type ||
      !isa<FloatType>(type))
    return std::nullopt;
  auto key = keyOf(plan, resolve(plan, At{i, termOf(plan.ops[i])}));
  At term = resolve(plan, At{j, termOf(plan.ops[j])});
  // The row's terms, at another op: a column value independent of op i.
  auto sameTerm = [&](At a) {
    a = resolve(plan, a);
    return a.v.getType() == type && !dependsOn(plan, a, i) && keyOf(plan, a) == key;
  };
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(first)) {
    // exp(a - M).
    auto exp = dyn_cast_or_null<math::ExpOp>(defIn(plan, term));
    if (!exp)
      return std::nullopt;
    At d = resolve(plan, At{term.op, exp.getOperand()});
    auto sub = dyn_cast_or_null<arith::SubFOp>(defIn(plan, d));
    if (!sub || rowOf(plan, resolve(plan, At{d.op, sub.getRhs()})) != static_cast<int>(i) ||
        !sameTerm(At{d.op, sub.getLhs()}))
      return std::nullopt;
    return OnlinePair{i, j, OnlinePair::MaxExpSum, {}};
  }
  if (!isa<arith::AddFOp>(first))
    return std::nullopt;
  // (a - c)^2, c from S alone.
  auto square = dyn_cast_or_null<arith::MulFOp>(defIn(plan, term));
  if (!square || !(resolve(plan, At{term.op, square.getLhs()}) ==
                   resolve(plan, At{term.op, square.getRhs()})))
    return std::nullopt;
  At d = resolve(plan, At{term.op, square.getLhs()});
  auto sub = dyn_cast_or_null<arith::SubFOp>(defIn(plan, d));
  if (!sub)
    return std::nullopt;
  for (auto [a, c] : {std::pair{sub.getLhs(), sub.getRhs()}, {sub.getRhs(), sub.getLhs()}})
    if (sameTerm(At{d.op, a}) && fromRowOnly(plan, At{d.op, c}, i))
      return OnlinePair{i, j, OnlinePair::SumSquares, {d.op, c}};
  return std::nullopt;
}

Value OnChip::centerOf(unsigned op, Value v, unsigned row, Value total) {
  At a = resolve(plan, At{op, v});
  if (isa<BlockArgument>(a.v))
    return rowOf(plan, a) == static_cast<int>(row) ? total : a.v;
  Operation *def = defIn(plan, a);
  if (!def)
    return a.v;
  IRMapping mapping;
  for (Value x : def->getOperands())
    mapping.map(x, centerOf(a.op, x, row, total));
  return b.clone(*def, mapping)->getResult(0);
}

namespace {

Value floatConst(OpBuilder &b, Location loc, Type t, double v) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v));
}

/// exp(m - max), 1 where m is max (both -inf: no NaN).
Value rescale(OpBuilder &b, Location loc, Value m, Value max) {
  Value same = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m, max);
  Value e = math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, m, max));
  return arith::SelectOp::create(b, loc, same, floatConst(b, loc, m.getType(), 1.0), e);
}

} // namespace

void OnChip::onlineSoftmax(const OnlinePair &p, Value sharedMax, Value sharedSum, Value slots,
                           function_ref<Slot(Value)> slotAt) {
  Operation *maxOp = combinerOf(cast<linalg::GenericOp>(plan.ops[p.first].getOperation()));
  Value lowest = identityOf(p.first), zero = identityOf(p.second);
  // Per thread: (m, sum, lost), the sum compensated as in looped().
  scf::ForOp loop = overSlots(slots, {lowest, zero, zero}, [&](Value s, ValueRange acc) {
    Slot sl = slotAt(s);
    Memo memo;
    Value m = fold(p.first, sl, memo, acc[0]);
    rowValues[p.first] = {m};
    Value run = fold(p.second, sl, memo, zero);
    // Only -inf so far: exp(-inf - -inf) is NaN, the terms are 0 against
    // any later max.
    run = arith::SelectOp::create(
        b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m, lowest), zero, run);
    Value scale = rescale(b, loc, acc[0], m);
    auto [sum, lost] = lowering::compensatedAdd(b, loc, arith::MulFOp::create(b, loc, acc[1], scale),
                                                arith::MulFOp::create(b, loc, acc[2], scale), run);
    return SmallVector<Value>{m, sum, lost};
  });
  Value m = loop.getResult(0);
  Value s = arith::SubFOp::create(b, loc, loop.getResult(1), loop.getResult(2));
  // (m1, s1) and (m2, s2): the max, and each sum rescaled to it.
  auto merge = [&](Value m1, Value s1, Value m2, Value s2) {
    Value max = emit.combine(maxOp, m1, m2);
    Value sum = arith::AddFOp::create(
        b, loc, arith::MulFOp::create(b, loc, s1, rescale(b, loc, m1, max)),
        arith::MulFOp::create(b, loc, s2, rescale(b, loc, m2, max)));
    return std::pair{max, sum};
  };
  auto warpMerge = [&](Value m, Value s) {
    Value width = arith::ConstantIntOp::create(b, loc, 32, 32);
    for (int offset = 16; offset >= 1; offset /= 2) {
      Value off = arith::ConstantIntOp::create(b, loc, offset, 32);
      std::tie(m, s) = merge(m, s, emit.shuffleXor(m, off, width), emit.shuffleXor(s, off, width));
    }
    return std::pair{m, s};
  };
  std::tie(m, s) = warpMerge(m, s);
  if (staticThreads != 32) {
    Value c32 = constant(32), zeroIndex = constant(0);
    Value lane = arith::RemUIOp::create(b, loc, tid, c32);
    Value warp = arith::DivUIOp::create(b, loc, tid, c32);
    auto first = scf::IfOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, zeroIndex), false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&first.getThenRegion().front());
      memref::StoreOp::create(b, loc, m, sharedMax, ValueRange{warp});
      memref::StoreOp::create(b, loc, s, sharedSum, ValueRange{warp});
    }
    ::mlir::gpu::BarrierOp::create(b, loc);
    Value has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane,
                                      arith::DivUIOp::create(b, loc, blockDim, c32));
    Value at = arith::SelectOp::create(b, loc, has, lane, zeroIndex);
    Value mw = arith::SelectOp::create(
        b, loc, has, memref::LoadOp::create(b, loc, sharedMax, ValueRange{at}), lowest);
    Value sw = arith::SelectOp::create(
        b, loc, has, memref::LoadOp::create(b, loc, sharedSum, ValueRange{at}), zero);
    std::tie(m, s) = warpMerge(mw, sw);
  }
  setRowValue(p.first, m);
  setRowValue(p.second, s);
}

void OnChip::onlineMoments(const OnlinePair &p, Value sharedSum, Value sharedSquares,
                           Value slots, function_ref<Slot(Value)> slotAt) {
  Value zero = identityOf(p.first);
  Type t = zero.getType();
  Value lanes = floatConst(b, loc, t, plan.vector);
  // Per thread: the row's sum (compensated) and (n, mean, M2) of its terms.
  scf::ForOp loop =
      overSlots(slots, {zero, zero, zero, zero, zero}, [&](Value s, ValueRange acc) {
        Slot sl = slotAt(s);
        Memo memo;
        SmallVector<Value> terms; // 0 + a: the term itself
        for (unsigned l = 0; l < plan.vector; ++l)
          terms.push_back(body(p.first, l, sl, memo, zero)[0]);
        Value run = terms[0];
        for (Value a : ArrayRef(terms).drop_front())
          run = arith::AddFOp::create(b, loc, run, a);
        auto [sum, lost] = lowering::compensatedAdd(b, loc, acc[0], acc[1], run);
        Value mean = arith::DivFOp::create(b, loc, run, lanes);
        Value m2 = zero;
        for (Value a : terms) {
          Value d = arith::SubFOp::create(b, loc, a, mean);
          m2 = arith::AddFOp::create(b, loc, m2, arith::MulFOp::create(b, loc, d, d));
        }
        // Chan et al.'s merge of (n, mean, M2) with the slot's (V, mean, m2).
        Value n = arith::AddFOp::create(b, loc, acc[2], lanes);
        Value delta = arith::SubFOp::create(b, loc, mean, acc[3]);
        Value newMean = arith::AddFOp::create(
            b, loc, acc[3],
            arith::MulFOp::create(b, loc, delta, arith::DivFOp::create(b, loc, lanes, n)));
        Value weight = arith::DivFOp::create(
            b, loc, arith::MulFOp::create(b, loc, acc[2], lanes), n);
        Value newM2 = arith::AddFOp::create(
            b, loc, arith::AddFOp::create(b, loc, acc[4], m2),
            arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, delta, delta), weight));
        return SmallVector<Value>{sum, lost, n, newMean, newM2};
      });
  Value partial = arith::SubFOp::create(b, loc, loop.getResult(0), loop.getResult(1));
  finishReduction(p.first, partial, zero, sharedSum);
  // About the kernel's center c: sum (a - c)^2 = M2 + n (mean - c)^2.
  Value c = centerOf(p.center.first, p.center.second, p.first, rowValues.lookup(p.first)[0]);
  Value d = arith::SubFOp::create(b, loc, loop.getResult(3), c);
  Value own = arith::AddFOp::create(
      b, loc, loop.getResult(4),
      arith::MulFOp::create(b, loc, loop.getResult(2), arith::MulFOp::create(b, loc, d, d)));
  finishReduction(p.second, own, zero, sharedSquares);
}

} // namespace kfuse::gpu::rows
