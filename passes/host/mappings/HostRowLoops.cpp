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
// f16/bf16 values accumulate in f32. An f32 kernel's f64 moments sum
// plainly (sumsNarrowerFloats).
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

/// Whether an f64 sum of `ops` is an f32 program's: some operand of the
/// kernel holds f32, f16 or bf16 (the moments of layer_norm, rms_norm,
/// var and std, taken in f64: --f64-moments). Its plain sum's error,
/// n 2^-53 sum |x|, is below f32's rounding for rows under 2^29 elements,
/// so the compensated step, whose dependent adds made each row of BERT's
/// layer norms wait (rows of 64: 22.6 us for 512 rows on one core), buys
/// nothing there; an f64 program (the float64 reference) keeps it.
bool sumsNarrowerFloats(ArrayRef<linalg::LinalgOp> ops) {
  return llvm::any_of(ops, [](linalg::LinalgOp op) {
    return llvm::any_of(op->getOperandTypes(), [](Type t) {
      auto memref = dyn_cast<MemRefType>(t);
      return memref && isa<FloatType>(memref.getElementType()) &&
             memref.getElementTypeBitWidth() < 64;
    });
  });
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

SmallVector<Value> HostRowEmitter::runRows(ArrayRef<HostRowEmitter *> rows, const Pass &pass,
                                           Value begin, Value end, int64_t accumulators) {
  HostRowEmitter &first = *rows.front();
  const int64_t width = first.lanes; // every row's emitter has the same
  OpBuilder &b = first.b;
  Location loc = first.loc;
  int64_t numRows = rows.size();
  // Values of each row (inputs that do not vary along the columns), loaded
  // once before the loops; LLVM cannot hoist them past the loop's stores.
  unsigned colDim = first.layout.isRowDim.size() - 1;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<IRMapping> rowValues(numRows);
  SmallVector<linalg::GenericOp> all(pass.elementwise);
  if (pass.reduction)
    all.push_back(pass.reduction);
  all.append(first.recomputedFor(all)); // the writers this pass runs again
  for (auto [r, row] : llvm::enumerate(rows))
    for (linalg::GenericOp op : all)
      for (OpOperand *input : op.getDpsInputOperands()) {
        BlockArgument arg = op.getRegion().front().getArgument(input->getOperandNumber());
        AffineMap map = op.getMatchingIndexingMap(input);
        if (arg.use_empty() || map.isFunctionOfDim(colDim))
          continue;
        rowValues[r].map(arg, memref::LoadOp::create(b, loc, input->get(),
                                                     gpu::indices(b, loc, map, row->ivs(zero))));
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
  // One vector of columns from `c` for every row, one row after the other.
  auto bodies = [&](Value c, Value mask) {
    SmallVector<Value> out;
    for (auto [r, row] : llvm::enumerate(rows))
      out.push_back(row->body(pass, c, mask, privateBuffers, rowValues[r]));
    return out;
  };

  Value n = arith::SubIOp::create(b, loc, end, begin);
  auto roundDown = [&](int64_t m) {
    Value mm = arith::ConstantIndexOp::create(b, loc, m);
    return arith::AddIOp::create(
        b, loc, begin,
        arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, n, mm), mm));
  };
  Value vecEnd = roundDown(width);
  auto tailIf = [&](TypeRange types) {
    return scf::IfOp::create(
        b, loc, types, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, vecEnd, end),
        /*withElseRegion=*/!types.empty());
  };
  auto tailMask = [&]() -> Value {
    Value rest = arith::SubIOp::create(b, loc, end, vecEnd);
    return vector::CreateMaskOp::create(b, loc, VectorType::get({width}, b.getI1Type()),
                                        ValueRange{rest});
  };
  auto at = [&](Value c, int64_t k) {
    return arith::AddIOp::create(b, loc, c, arith::ConstantIndexOp::create(b, loc, k * width));
  };

  if (!pass.reduction) {
    loop(b, loc, begin, vecEnd, width, {}, [&](Value c, ValueRange) {
      bodies(c, nullptr);
      return SmallVector<Value>();
    });
    auto tail = tailIf({});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&tail.getThenRegion().front());
    bodies(vecEnd, tailMask());
    return SmallVector<Value>(numRows, Value());
  }

  // The accumulator: the combiner's type, f32 for narrower floats.
  linalg::GenericOp red = pass.reduction;
  Operation *combiner = gpu::combinerOf(red);
  Type resultType = combiner->getResult(0).getType();
  bool widen = isa<FloatType>(resultType) && resultType.getIntOrFloatBitWidth() < 32;
  Type accType = widen ? b.getF32Type() : resultType;
  VectorType accVec = VectorType::get({width}, accType);
  TypedAttr init = gpu::rows::initialValue(red, first.kernelOps).getValue();
  if (widen) { // the identity (0, 1, +-inf) is exact in f32
    APFloat v = cast<FloatAttr>(init).getValue();
    bool lost;
    v.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
    init = b.getFloatAttr(accType, v);
  }
  Value identity = arith::ConstantOp::create(b, loc, SplatElementsAttr::get(accVec, init));
  // Each row's term of the vector from `c`.
  auto terms = [&](Value c, Value mask) {
    SmallVector<Value> t = bodies(c, mask);
    for (Value &v : t) {
      if (widen)
        v = arith::ExtFOp::create(b, loc, accVec, v);
      if (mask)
        v = arith::SelectOp::create(b, loc, mask, v, identity);
    }
    return t;
  };
  Value mainEnd = roundDown(width * kUnroll);
  bool compensated = isa<arith::AddFOp>(combiner) &&
                     !(accType.isF64() && sumsNarrowerFloats(first.kernelOps));
  SmallVector<Value> lanes; // each row's combined accumulator, one value a lane
  if (compensated) {
    // (sum, lost) a row.
    auto kahan = [&](ValueRange acc, ArrayRef<Value> x) {
      SmallVector<Value> next;
      for (int64_t r = 0; r < numRows; ++r) {
        auto [s, l] = compensatedAddVec(b, loc, acc[2 * r], acc[2 * r + 1], x[r]);
        next.append({s, l});
      }
      return next;
    };
    SmallVector<Value> inits(2 * numRows, identity);
    ValueRange acc = loop(b, loc, begin, mainEnd, width * kUnroll, inits,
                          [&](Value c, ValueRange acc) {
      SmallVector<SmallVector<Value>> t;
      for (int64_t k = 0; k < kUnroll; ++k)
        t.push_back(terms(at(c, k), nullptr));
      SmallVector<Value> runs;
      for (int64_t r = 0; r < numRows; ++r)
        runs.push_back(arith::AddFOp::create(b, loc,
                                             arith::AddFOp::create(b, loc, t[0][r], t[1][r]),
                                             arith::AddFOp::create(b, loc, t[2][r], t[3][r])));
      return kahan(acc, runs);
    });
    acc = loop(b, loc, mainEnd, vecEnd, width, acc,
               [&](Value c, ValueRange acc) { return kahan(acc, terms(c, nullptr)); });
    auto tail = tailIf(acc.getTypes());
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&tail.getThenRegion().front());
      scf::YieldOp::create(b, loc, kahan(acc, terms(vecEnd, tailMask())));
      b.setInsertionPointToStart(&tail.getElseRegion().front());
      scf::YieldOp::create(b, loc, acc);
    }
    for (int64_t r = 0; r < numRows; ++r)
      lanes.push_back(
          arith::SubFOp::create(b, loc, tail.getResult(2 * r), tail.getResult(2 * r + 1)));
  } else {
    // `accumulators` a row; the main loop's vector k goes to k % of them.
    int64_t per = accumulators;
    SmallVector<Value> inits(per * numRows, identity);
    ValueRange acc = loop(b, loc, begin, mainEnd, width * kUnroll, inits,
                          [&](Value c, ValueRange acc) {
      SmallVector<Value> next(acc);
      for (int64_t k = 0; k < kUnroll; ++k) {
        SmallVector<Value> t = terms(at(c, k), nullptr);
        for (int64_t r = 0; r < numRows; ++r) {
          Value &a = next[r * per + k % per];
          a = combineLike(b, loc, combiner, a, t[r]);
        }
      }
      return next;
    });
    // Each row's accumulators as a tree, in a fixed order.
    SmallVector<Value> ones;
    for (int64_t r = 0; r < numRows; ++r) {
      SmallVector<Value> level(acc.begin() + r * per, acc.begin() + (r + 1) * per);
      while (level.size() > 1) {
        SmallVector<Value> up;
        for (size_t i = 0; i + 1 < level.size(); i += 2)
          up.push_back(combineLike(b, loc, combiner, level[i], level[i + 1]));
        if (level.size() % 2)
          up.push_back(level.back());
        level = up;
      }
      ones.push_back(level[0]);
    }
    ValueRange one = loop(b, loc, mainEnd, vecEnd, width, ones, [&](Value c, ValueRange acc) {
      SmallVector<Value> t = terms(c, nullptr), next;
      for (int64_t r = 0; r < numRows; ++r)
        next.push_back(combineLike(b, loc, combiner, acc[r], t[r]));
      return next;
    });
    auto tail = tailIf(one.getTypes());
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&tail.getThenRegion().front());
      SmallVector<Value> t = terms(vecEnd, tailMask()), next;
      for (int64_t r = 0; r < numRows; ++r)
        next.push_back(combineLike(b, loc, combiner, one[r], t[r]));
      scf::YieldOp::create(b, loc, next);
      b.setInsertionPointToStart(&tail.getElseRegion().front());
      scf::YieldOp::create(b, loc, one);
    }
    lanes = SmallVector<Value>(tail.getResults());
  }
  // The lanes as a tree of vector halves (8 -> 4 -> 2 -> 1 for 8): three
  // combines where one after another took seven, each a scalar chain for
  // maximumf and minimumf (NaN and signed zeros checked lane by lane: a
  // third of a softmax over rows of 64). The order is fixed, so the result
  // still does not depend on the thread.
  SmallVector<Value> totals;
  for (Value lane : lanes) {
    for (int64_t half = width / 2; half >= 1; half /= 2) {
      auto part = [&](int64_t offset) {
        return vector::ExtractStridedSliceOp::create(b, loc, lane, ArrayRef<int64_t>{offset},
                                                     ArrayRef<int64_t>{half},
                                                     ArrayRef<int64_t>{1})
            .getResult();
      };
      lane = combineLike(b, loc, combiner, part(0), part(half));
    }
    Value total = vector::ExtractOp::create(b, loc, lane, int64_t(0));
    if (widen)
      total = arith::TruncFOp::create(b, loc, resultType, total);
    totals.push_back(total);
  }
  return totals;
}
