//===- AttentionHost.cpp - the attention kernel on the host's cores --------===//
//
// The host runtime runs a block as one thread, so what the GPU's threads
// share is the thread's alone: the tile of keys is staged once for all the
// block's rows (rows inside the tiles, each row's q and state kept in the
// thread's buffers between tiles), k staged transposed so that a tile's
// scores are one vector a dim, and the softmax and the output row's update
// computed on vectors of the tile's keys and of the row's dims. Staging a
// tile per row cost as much as the arithmetic, and the scalar form ran the
// GPT-2 block's attention at 1.0 s where three kernels take 0.1 s.
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/attention/AttentionEmitter.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace kfuse::gpu::attention {

/// The host's scores of the tile's keys, one vector a dim: the staged
/// k^T's row times q's element, added to the running sums (the body's
/// order: acc + q * k) by one fused multiply-add, as the GPU's contracted
/// code and PyTorch's CPU matmuls do.
Value AttentionEmitter::vectorDots(ArrayRef<Value> q) {
  auto type = VectorType::get({tileKeys}, b.getF32Type());
  Value sums = vector::BroadcastOp::create(b, loc, type, fillValue(p.qkFill));
  for (int64_t d = 0; d < headDim; ++d) {
    Value k = vector::LoadOp::create(b, loc, type, kTile, ValueRange{index(d), zero});
    Value qd = vector::BroadcastOp::create(b, loc, type, q[d]);
    sums = vector::FMAOp::create(b, loc, qd, k, sums);
  }
  return sums;
}

/// `op`'s body on vectors of the tile's keys: each op rebuilt with vector
/// results, a scalar operand (a constant) broadcast. The score ops and the
/// softmax's are arith and math ops on scalars (analyzeAttention checks).
Value AttentionEmitter::vectorApply(linalg::LinalgOp op, ArrayRef<Value> args) {
  Block &body = op->getRegion(0).front();
  IRMapping mapping;
  for (BlockArgument arg : body.getArguments())
    mapping.map(arg, arg.getArgNumber() < args.size() ? args[arg.getArgNumber()] : args[0]);
  auto lanes = [&](Type t) { return VectorType::get({tileKeys}, t); };
  for (Operation &inner : body.without_terminator()) {
    if (isa<arith::ConstantOp>(inner)) {
      b.clone(inner, mapping);
      continue;
    }
    SmallVector<Value> operands;
    for (Value v : inner.getOperands()) {
      Value mapped = mapping.lookupOrDefault(v);
      if (!isa<VectorType>(mapped.getType()))
        mapped = vector::BroadcastOp::create(b, loc, lanes(mapped.getType()), mapped);
      operands.push_back(mapped);
    }
    SmallVector<Type> types;
    for (Type t : inner.getResultTypes())
      types.push_back(lanes(t));
    OperationState state(loc, inner.getName(), operands, types, inner.getAttrs());
    Operation *vectorOp = b.create(state);
    mapping.map(inner.getResults(), vectorOp->getResults());
  }
  return mapping.lookupOrDefault(cast<linalg::YieldOp>(body.getTerminator()).getOperand(0));
}

/// The score ops on the tile's scores (`dots`), for query `row` and keys
/// j0..: other inputs (the mask) gathered lane by lane, at the last key
/// for lanes past it, which then score the max's identity (-inf).
Value AttentionEmitter::vectorScores(Value dots, Value row, Value j0) {
  Value x = dots, previous = produced(p.qk);
  Value last = arith::SubIOp::create(b, loc, N, one);
  SmallVector<Value> keys, inside;
  for (int64_t jj = 0; jj < tileKeys; ++jj) {
    Value j = arith::AddIOp::create(b, loc, j0, index(jj));
    inside.push_back(below(j, N));
    keys.push_back(arith::MinUIOp::create(b, loc, j, last));
  }
  for (linalg::GenericOp g : p.scores) {
    SmallVector<Value> args;
    for (OpOperand &operand : g->getOpOperands()) {
      if (analysis::unitReshapeSource(operand.get()) == previous || g.isDpsInit(&operand)) {
        args.push_back(x);
        continue;
      }
      args.push_back(scoreOperand(operand, g.getMatchingIndexingMap(&operand), row, j0, keys));
    }
    x = vectorApply(g, args);
    previous = produced(g);
  }
  Value mask = vector::FromElementsOp::create(
      b, loc, VectorType::get({tileKeys}, b.getI1Type()), inside);
  Value lowest = vector::BroadcastOp::create(b, loc, x.getType(), fillValue(p.maxFill));
  return arith::SelectOp::create(b, loc, mask, x, lowest);
}

/// Another input of a score op (a mask, a bias) at query `row` and the
/// tile's keys from j0 (`keys`: each lane's key, the last for lanes past
/// it): one load broadcast where it does not vary with the key (a mask
/// broadcast over keys), one masked vector load where the key is its last,
/// unit-stride dim (lanes past the last key read 1, so that an integer
/// division there cannot trap, and are dropped), and
/// lane by lane otherwise, and for bools, whose buffers hold a byte an
/// element (a vector of i1 would read bits).
Value AttentionEmitter::scoreOperand(OpOperand &operand, AffineMap map, Value row, Value j0,
                                     ArrayRef<Value> keys) {
  Value buffer = operand.get();
  auto type = cast<MemRefType>(buffer.getType());
  Type element = type.getElementType();
  auto lanes = VectorType::get({tileKeys}, element);
  auto at = [&](Value j) {
    SmallVector<Value> ivs(batchIvs);
    ivs.append({row, j});
    return indices(b, loc, map, ivs);
  };
  unsigned key = map.getNumDims() - 1;
  if (!map.isFunctionOfDim(key))
    return vector::BroadcastOp::create(b, loc, lanes,
                                       memref::LoadOp::create(b, loc, buffer, at(j0)));
  SmallVector<int64_t> strides;
  int64_t offset;
  bool keyLast = map.getNumResults() > 0 && map.getResults().back() == b.getAffineDimExpr(key) &&
                 llvm::count_if(map.getResults(), [&](AffineExpr e) {
                   return e.isFunctionOfDim(key);
                 }) == 1;
  if (keyLast && !element.isInteger(1) &&
      succeeded(type.getStridesAndOffset(strides, offset)) && strides.back() == 1) {
    Value size = memref::DimOp::create(b, loc, buffer, type.getRank() - 1);
    Value count = arith::SubIOp::create(b, loc, arith::MaxUIOp::create(b, loc, size, j0), j0);
    Value mask = vector::CreateMaskOp::create(
        b, loc, VectorType::get({tileKeys}, b.getI1Type()), ValueRange{count});
    Value ones = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(lanes, b.getOneAttr(element)));
    return vector::MaskedLoadOp::create(b, loc, lanes, buffer, at(j0), mask, ones);
  }
  SmallVector<Value> values;
  for (Value j : keys)
    values.push_back(memref::LoadOp::create(b, loc, buffer, at(j)));
  return vector::FromElementsOp::create(b, loc, lanes, values);
}

/// One tile of keys for the block's row `r` (query `row`) on vectors: the
/// state's max and sum and the output row read from and written back to
/// the thread's buffers.
void AttentionEmitter::hostTile(Value r, Value row, Value j0) {
  auto at = [&](int64_t i) { return SmallVector<Value>{r, index(i)}; };
  Value m = memref::LoadOp::create(b, loc, stateBuffer, at(0));
  Value l = memref::LoadOp::create(b, loc, stateBuffer, at(1));
  SmallVector<Value> q;
  for (int64_t d = 0; d < headDim; ++d)
    q.push_back(memref::LoadOp::create(b, loc, qBuffer, at(d)));
  Value scores = vectorScores(vectorDots(q), row, j0);
  Value lowest = fillValue(p.maxFill);
  // As the scalar path (AttentionKernels.cpp: tile), on vectors: the max
  // is exact in any order; the sum is an ordered reduction from l * rescale.
  Value tileMax = vector::ReductionOp::create(b, loc, vector::CombiningKind::MAXIMUMF, scores);
  Value newMax = apply(p.max, {tileMax, m});
  Value allMasked = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, newMax, lowest);
  Value rescale = arith::SelectOp::create(b, loc, allMasked, f32(1.0),
                                          apply(p.exp, {apply(p.sub, {m, newMax})}));
  auto type = cast<VectorType>(scores.getType());
  Value exps = vectorApply(
      p.exp, {vectorApply(p.sub, {scores, vector::BroadcastOp::create(b, loc, type, newMax)})});
  Value probabilities = arith::SelectOp::create(
      b, loc, vector::BroadcastOp::create(b, loc, VectorType::get({tileKeys}, b.getI1Type()), allMasked),
      vector::BroadcastOp::create(b, loc, type, f32(0.0)), exps);
  Value sum = vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD, probabilities,
                                          arith::MulFOp::create(b, loc, l, rescale));
  SmallVector<Value> lanes;
  for (int64_t jj = 0; jj < tileKeys; ++jj)
    lanes.push_back(vector::ExtractOp::create(b, loc, probabilities, jj));
  vectorAccumulate(r, rescale, lanes);
  memref::StoreOp::create(b, loc, newMax, stateBuffer, at(0));
  memref::StoreOp::create(b, loc, sum, stateBuffer, at(1));
}

/// The host's output row (in stateBuffer[r][2..]) rescaled and
/// accumulated, up to `tileKeys` dims a vector (acc * rescale, then + p * v
/// key by key: the scalar path's order); the widest of 32, 16, 8 and 4
/// dims that the row has first, so that a head of 16 dims is one vector,
/// not 16 scalar loops over the keys (that made GPT-2's heads of 16 dims
/// 2x slower than three kernels); dims past the last vector one by one.
void AttentionEmitter::vectorAccumulate(Value r, Value rescale, ArrayRef<Value> probabilities) {
  int64_t d = 0;
  for (int64_t width = tileKeys; width >= 4; width /= 2)
    for (; d + width <= valueDim; d += width)
      accumulateDims(r, rescale, probabilities, d, width);
  for (; d < valueDim; ++d) {
    SmallVector<Value> at = {r, index(2 + d)};
    Value acc = arith::MulFOp::create(
        b, loc, memref::LoadOp::create(b, loc, stateBuffer, at), rescale);
    for (auto [jj, prob] : llvm::enumerate(probabilities)) {
      Value v = memref::LoadOp::create(b, loc, vTile, ValueRange{index(jj), index(d)});
      acc = apply(p.pv, {prob, v, acc});
    }
    memref::StoreOp::create(b, loc, acc, stateBuffer, at);
  }
}

/// Dims d..d+width of the output row on one vector (vectorAccumulate).
void AttentionEmitter::accumulateDims(Value r, Value rescale, ArrayRef<Value> probabilities,
                                      int64_t d, int64_t width) {
  auto type = VectorType::get({width}, b.getF32Type());
  Value scale = vector::BroadcastOp::create(b, loc, type, rescale);
  {
    SmallVector<Value> at = {r, index(2 + d)};
    Value acc = vector::LoadOp::create(b, loc, type, stateBuffer, at);
    acc = arith::MulFOp::create(b, loc, acc, scale);
    for (auto [jj, prob] : llvm::enumerate(probabilities)) {
      Value v = vector::LoadOp::create(b, loc, type, vTile, ValueRange{index(jj), index(d)});
      Value pv = vector::BroadcastOp::create(b, loc, type, prob);
      acc = vector::FMAOp::create(b, loc, pv, v, acc);
    }
    vector::StoreOp::create(b, loc, acc, stateBuffer, at);
  }
}

/// The host's block (one thread): `rows` query rows from `firstRow`, the
/// tiles of keys outside (each staged once for all the rows), the rows
/// inside, each row's q and state kept in the thread's buffers between
/// tiles. Staging a tile per row instead cost as much as the arithmetic.
void AttentionEmitter::emitHostRows(Value firstRow, int64_t rows,
                                    const launch::LaunchTarget &target) {
  Value qs = qBuffer, states = stateBuffer; // allocated where the launch begins
  auto eachRow = [&](function_ref<void(Value r, Value row)> body) {
    auto loop = scf::ForOp::create(b, loc, zero, index(rows), one);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value r = loop.getInductionVar();
    Value row = arith::AddIOp::create(b, loc, firstRow, r);
    auto valid = scf::IfOp::create(b, loc, below(row, M), false);
    b.setInsertionPointToStart(&valid.getThenRegion().front());
    body(r, row);
  };
  auto loadRow = [&](Value buf, Value r, int64_t n) {
    SmallVector<Value> values;
    for (int64_t i = 0; i < n; ++i)
      values.push_back(memref::LoadOp::create(b, loc, buf, ValueRange{r, index(i)}));
    return values;
  };
  auto storeRowState = [&](Value buf, Value r, ValueRange values) {
    for (auto [i, v] : llvm::enumerate(values))
      memref::StoreOp::create(b, loc, v, buf, ValueRange{r, index(i)});
  };
  eachRow([&](Value r, Value row) {
    storeRowState(qs, r, loadQ(row, below(row, M)));
    storeRowState(states, r, initialState());
  });
  Value tiles = arith::CeilDivUIOp::create(b, loc, N, index(tileKeys));
  auto keys = scf::ForOp::create(b, loc, zero, tiles, one);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(keys.getBody());
    Value j0 = arith::MulIOp::create(b, loc, keys.getInductionVar(), index(tileKeys));
    stage(j0, zero, one, target);
    eachRow([&](Value r, Value row) { hostTile(r, row, j0); });
  }
  eachRow([&](Value r, Value row) { storeRow(row, loadRow(states, r, valueDim + 2)); });
}

} // namespace kfuse::gpu::attention
