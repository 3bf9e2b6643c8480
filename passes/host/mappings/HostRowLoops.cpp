//===- HostRowLoops.cpp - the loops of one vector pass over a row ---------===//
//
// A pass over columns [begin, end): a main loop of kUnroll vectors, a loop
// of single vectors, and one masked vector for the rest (lanes past the end
// neither load nor store, and count as the reduction's identity). A
// reduction keeps one accumulator a lane and combines the lanes at the end,
// halves by halves in a fixed order (the result does not depend on the
// thread that runs it).
//
// Float sums stay compensated as in RowEmitter::partialOf: each lane adds a
// run of kUnroll vectors (a tree of 3 adds, 32 elements) plainly and folds
// the run's sum into its (sum, lost) pair with one compensated step
// (utils/CompensatedSum.h, written here for vectors); the error is bounded
// by the run and by the 8 lanes' final sum, not by the row's length.
// f16/bf16 values accumulate in f32.
//
//===----------------------------------------------------------------------===//
#include "passes/host/mappings/HostRowEmitter.h"

using namespace mlir;
using namespace kfuse::host::rows;

namespace {

/// One compensated step on vectors (CompensatedSum.h's compensatedAdd,
/// whose zero constant is scalar).
std::pair<Value, Value> compensatedAddVec(OpBuilder &b, Location loc, Value sum, Value lost,
                                          Value x) {
  Value y = arith::SubFOp::create(b, loc, x, lost);
  Value t = arith::AddFOp::create(b, loc, sum, y);
  Value newLost = arith::SubFOp::create(b, loc, arith::SubFOp::create(b, loc, t, sum), y);
  auto type = cast<VectorType>(t.getType());
  Value zero = arith::ConstantOp::create(
      b, loc, SplatElementsAttr::get(type, b.getFloatAttr(type.getElementType(), 0.0)));
  Value finite = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                       arith::SubFOp::create(b, loc, t, t), zero);
  return {t, arith::SelectOp::create(b, loc, finite, newLost, zero)};
}

/// `combiner`'s op on (a, c), of a's type (vector or scalar).
Value combineLike(OpBuilder &b, Location loc, Operation *combiner, Value a, Value c) {
  OperationState state(loc, combiner->getName());
  state.addOperands({a, c});
  state.addTypes(a.getType());
  state.addAttributes(combiner->getAttrs());
  return b.create(state)->getResult(0);
}

/// A loop from `from` to `to` by `step` carrying `inits`; `body(c, acc)`
/// returns the next values.
template <typename Body>
ValueRange loop(OpBuilder &b, Location loc, Value from, Value to, int64_t step,
                ValueRange inits, Body body) {
  auto forOp = scf::ForOp::create(
      b, loc, from, to, arith::ConstantIndexOp::create(b, loc, step), inits,
      [&](OpBuilder &nested, Location, Value c, ValueRange acc) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
        scf::YieldOp::create(b, loc, body(c, acc));
      });
  return forOp.getResults();
}

} // namespace

Value HostRowEmitter::run(const Pass &pass, Value begin, Value end) {
  // Values of the row (inputs that do not vary along the columns), loaded
  // once before the loops; LLVM cannot hoist them past the loop's stores.
  unsigned colDim = layout.isRowDim.size() - 1;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  IRMapping rowValues;
  SmallVector<linalg::GenericOp> all(pass.elementwise);
  if (pass.reduction)
    all.push_back(pass.reduction);
  all.append(recomputedFor(all)); // the writers this pass runs again
  for (linalg::GenericOp op : all)
    for (OpOperand *input : op.getDpsInputOperands()) {
      BlockArgument arg = op.getRegion().front().getArgument(input->getOperandNumber());
      AffineMap map = op.getMatchingIndexingMap(input);
      if (arg.use_empty() || map.isFunctionOfDim(colDim))
        continue;
      rowValues.map(arg, memref::LoadOp::create(b, loc, input->get(),
                                                gpu::indices(b, loc, map, ivs(zero))));
    }
  // Results only later ops of this pass read (at the same element), in
  // buffers the program allocated: kept in registers, never stored.
  DenseSet<Value> privateBuffers;
  for (auto [i, constOp] : llvm::enumerate(pass.elementwise)) {
    linalg::GenericOp op = constOp;
    for (Value init : op.getDpsInits()) {
      if (!init.getDefiningOp<memref::AllocOp>())
        continue;
      bool onlyHere = llvm::all_of(init.getUsers(), [&](Operation *user) {
        if (isa<memref::DeallocOp>(user) || user == op.getOperation())
          return true;
        auto reader = dyn_cast<linalg::GenericOp>(user);
        bool later = reader && (reader == pass.reduction ||
                                llvm::is_contained(ArrayRef(pass.elementwise).drop_front(i + 1),
                                                   reader));
        return later && llvm::all_of(reader->getOpOperands(), [&](OpOperand &o) {
                 return o.get() != init || (!reader.isDpsInit(&o) &&
                                            reader.getMatchingIndexingMap(&o).isIdentity());
               });
      });
      if (onlyHere)
        privateBuffers.insert(init);
    }
  }

  Value lanes = arith::ConstantIndexOp::create(b, loc, kLanes);
  Value n = arith::SubIOp::create(b, loc, end, begin);
  auto roundDown = [&](int64_t m) {
    Value mm = arith::ConstantIndexOp::create(b, loc, m);
    return arith::AddIOp::create(
        b, loc, begin,
        arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, n, mm), mm));
  };
  Value vecEnd = roundDown(kLanes);
  auto tailIf = [&](TypeRange types) {
    return scf::IfOp::create(
        b, loc, types, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, vecEnd, end),
        /*withElseRegion=*/!types.empty());
  };
  auto tailMask = [&]() -> Value {
    Value rest = arith::SubIOp::create(b, loc, end, vecEnd);
    return vector::CreateMaskOp::create(b, loc, VectorType::get({kLanes}, b.getI1Type()),
                                        ValueRange{rest});
  };

  if (!pass.reduction) {
    loop(b, loc, begin, vecEnd, kLanes, {}, [&](Value c, ValueRange) {
      body(pass, c, nullptr, privateBuffers, rowValues);
      return SmallVector<Value>();
    });
    auto tail = tailIf({});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&tail.getThenRegion().front());
    body(pass, vecEnd, tailMask(), privateBuffers, rowValues);
    return nullptr;
  }

  // The accumulator: the combiner's type, f32 for narrower floats.
  linalg::GenericOp red = pass.reduction;
  Operation *combiner = gpu::combinerOf(red);
  Type resultType = combiner->getResult(0).getType();
  bool widen = isa<FloatType>(resultType) && resultType.getIntOrFloatBitWidth() < 32;
  Type accType = widen ? b.getF32Type() : resultType;
  VectorType accVec = vectorOf(accType);
  TypedAttr init = gpu::rows::initialValue(red, kernelOps).getValue();
  if (widen) { // the identity (0, 1, +-inf) is exact in f32
    APFloat v = cast<FloatAttr>(init).getValue();
    bool lost;
    v.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
    init = b.getFloatAttr(accType, v);
  }
  Value identity = arith::ConstantOp::create(b, loc, SplatElementsAttr::get(accVec, init));
  auto term = [&](Value c, Value mask) {
    Value t = body(pass, c, mask, privateBuffers, rowValues);
    if (widen)
      t = arith::ExtFOp::create(b, loc, accVec, t);
    if (mask)
      t = arith::SelectOp::create(b, loc, mask, t, identity);
    return t;
  };
  Value mainEnd = roundDown(kLanes * kUnroll);
  bool isSum = isa<arith::AddFOp>(combiner);
  Value lane; // the combined accumulator, one value a lane
  if (isSum) {
    auto kahan = [&](ValueRange acc, Value x) {
      auto [s, l] = compensatedAddVec(b, loc, acc[0], acc[1], x);
      return SmallVector<Value>{s, l};
    };
    ValueRange acc = loop(b, loc, begin, mainEnd, kLanes * kUnroll, {identity, identity},
                          [&](Value c, ValueRange acc) {
      SmallVector<Value> t;
      for (int64_t k = 0; k < kUnroll; ++k)
        t.push_back(term(arith::AddIOp::create(
                             b, loc, c, arith::ConstantIndexOp::create(b, loc, k * kLanes)),
                         nullptr));
      Value run = arith::AddFOp::create(b, loc, arith::AddFOp::create(b, loc, t[0], t[1]),
                                        arith::AddFOp::create(b, loc, t[2], t[3]));
      return kahan(acc, run);
    });
    acc = loop(b, loc, mainEnd, vecEnd, kLanes, acc,
               [&](Value c, ValueRange acc) { return kahan(acc, term(c, nullptr)); });
    auto tail = tailIf(acc.getTypes());
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&tail.getThenRegion().front());
      scf::YieldOp::create(b, loc, kahan(acc, term(vecEnd, tailMask())));
      b.setInsertionPointToStart(&tail.getElseRegion().front());
      scf::YieldOp::create(b, loc, acc);
    }
    lane = arith::SubFOp::create(b, loc, tail.getResult(0), tail.getResult(1));
  } else {
    SmallVector<Value> inits(kUnroll, identity);
    ValueRange acc = loop(b, loc, begin, mainEnd, kLanes * kUnroll, inits,
                          [&](Value c, ValueRange acc) {
      SmallVector<Value> next;
      for (int64_t k = 0; k < kUnroll; ++k)
        next.push_back(combineLike(
            b, loc, combiner, acc[k],
            term(arith::AddIOp::create(b, loc, c,
                                       arith::ConstantIndexOp::create(b, loc, k * kLanes)),
                 nullptr)));
      return next;
    });
    Value one = combineLike(b, loc, combiner, combineLike(b, loc, combiner, acc[0], acc[1]),
                            combineLike(b, loc, combiner, acc[2], acc[3]));
    one = loop(b, loc, mainEnd, vecEnd, kLanes, one, [&](Value c, ValueRange acc) {
            return SmallVector<Value>{combineLike(b, loc, combiner, acc[0], term(c, nullptr))};
          })[0];
    auto tail = tailIf(accVec);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&tail.getThenRegion().front());
      scf::YieldOp::create(b, loc, combineLike(b, loc, combiner, one, term(vecEnd, tailMask())));
      b.setInsertionPointToStart(&tail.getElseRegion().front());
      scf::YieldOp::create(b, loc, one);
    }
    lane = tail.getResult(0);
  }
  // The lanes as a tree of vector halves (8 -> 4 -> 2 -> 1): three
  // combines where one after another took seven, each a scalar chain for
  // maximumf and minimumf (NaN and signed zeros checked lane by lane: a
  // third of a softmax over rows of 64). The order is fixed, so the result
  // still does not depend on the thread.
  for (int64_t width = kLanes / 2; width >= 1; width /= 2) {
    auto half = [&](int64_t offset) {
      return vector::ExtractStridedSliceOp::create(b, loc, lane, ArrayRef<int64_t>{offset},
                                                   ArrayRef<int64_t>{width},
                                                   ArrayRef<int64_t>{1})
          .getResult();
    };
    lane = combineLike(b, loc, combiner, half(0), half(width));
  }
  Value total = vector::ExtractOp::create(b, loc, lane, int64_t(0));
  if (widen)
    total = arith::TruncFOp::create(b, loc, resultType, total);
  return total;
}
