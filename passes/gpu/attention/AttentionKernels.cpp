//===- AttentionKernels.cpp - softmax(q @ k^T ...) @ v in one launch -------===//
//
// FlashAttention's schedule (Dao et al., 2022) on SIMT threads: a thread
// owns a query row, so the online softmax's max and sum and the output
// row stay in its registers and no thread ever waits for another's row.
// The block's threads share what every row reads, a tile of keys' k and v,
// staged once a tile in workgroup memory (a warp then reads one address:
// a broadcast). The score matrix, the one tensor of the eager program that
// grows with the square of the sequence, is never written.
//
// Every value is computed by the program's own op bodies, cloned (the
// contractions' multiply-add, the score ops, the softmax's max, x - max,
// exp, sum and division), so the kernel computes what the ops say. What
// differs from the eager order is FlashAttention's: each tile's scores are
// exponentiated against the running max, earlier sums rescaled by
// exp(old max - new max), and the division by the sum is applied once to
// the output row instead of to each probability.
//
// A row whose every score so far is -inf (a mask) keeps a max of -inf:
// then exp(x - max) would be exp(NaN); the rescale is 1 and the
// probabilities 0 until a finite score comes, so a masked prefix of keys
// costs nothing, and a row masked whole ends as 0 / 0 = NaN, as eager
// softmax gives.
//
// Not yet: tensor cores (mma.sync or wgmma for the two products, the
// matmul issue's building blocks), and element types other than f32
// (analysis/Attention.cpp refuses them, so kernel formation keeps such
// attentions as three kernels).
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/attention/AttentionKernels.h"
#include "passes/gpu/attention/AttentionEmitter.h"

#include "passes/analysis/Attention.h"
#include "passes/gpu/matmul/MatmulParts.h"
#include "passes/launch/MappingUtils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using kfuse::analysis::AttentionParts;

namespace kfuse::gpu {

namespace attention {

Value AttentionEmitter::load(linalg::LinalgOp op, unsigned o, Value m, Value n, Value k) {
  SmallVector<Value> ivs(batchIvs);
  ivs.append({m, n, k});
  SmallVector<Value> at = indices(b, loc, op.getIndexingMapsArray()[o], ivs);
  Value v = op.getDpsInputs()[o];
  while (linalg::GenericOp view = p.viewWriting(v)) {
    at = indices(b, loc, view.getIndexingMapsArray()[0], at);
    v = view.getDpsInputs()[0];
  }
  return memref::LoadOp::create(b, loc, v, at);
}

Value AttentionEmitter::loadIf(Value inside, function_ref<Value()> make) {
  auto branch = scf::IfOp::create(b, loc, b.getF32Type(), inside, true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&branch.getThenRegion().front());
  scf::YieldOp::create(b, loc, make());
  b.setInsertionPointToStart(&branch.getElseRegion().front());
  scf::YieldOp::create(b, loc, f32(0.0));
  return branch.getResult(0);
}

/// The tile's keys j0.. : kTile[jj][d] = K's (key j0 + jj, dim d),
/// vTile[jj][d] = V's; zero past the last key. The block's threads share
/// the elements, consecutive threads on consecutive dims.
void AttentionEmitter::stage(Value j0, Value tid, Value threads,
                             const launch::LaunchTarget &target) {
  target.barrier(b, loc); // the previous tile is read by every thread
  for (auto [buffer, dim, isKey] :
       {std::tuple{kTile, headDim, true}, std::tuple{vTile, valueDim, false}}) {
    Value dimV = index(dim);
    auto loop = scf::ForOp::create(b, loc, tid, index(tileKeys * dim), threads);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value e = loop.getInductionVar();
    Value jj = arith::DivUIOp::create(b, loc, e, dimV);
    Value d = arith::RemUIOp::create(b, loc, e, dimV);
    Value j = arith::AddIOp::create(b, loc, j0, jj);
    Value v = loadIf(below(j, N), [&] {
      // S's k is the head dim and n the key; O's k is the key, n the dim.
      return isKey ? load(p.qk, 1, zero, j, d) : load(p.pv, 1, zero, d, j);
    });
    bool transposed = isKey && !cooperative;
    memref::StoreOp::create(b, loc, v, buffer,
                            transposed ? ValueRange{d, jj} : ValueRange{jj, d});
  }
  target.barrier(b, loc);
}

/// One tile of keys for the GPU thread of query `row`: state (max, sum,
/// out[valueDim]) in, the updated state out, every value a scalar in
/// registers (the host's: AttentionHost.cpp, hostTile).
SmallVector<Value> AttentionEmitter::tile(Value row, Value j0, ValueRange state,
                                          ArrayRef<Value> q) {
  Value m = state[0], l = state[1];
  Value lowest = fillValue(p.maxFill);
  SmallVector<Value> scores;
  for (int64_t jj = 0; jj < tileKeys; ++jj) {
    Value jjV = index(jj);
    Value dot = fillValue(p.qkFill);
    for (int64_t d = 0; d < headDim; ++d) {
      Value k = memref::LoadOp::create(b, loc, kTile, ValueRange{jjV, index(d)});
      dot = apply(p.qk, {q[d], k, dot});
    }
    Value j = arith::AddIOp::create(b, loc, j0, jjV);
    // The score ops at (batch, row, j); a key past the last one scores the
    // max's identity (-inf), so its probability is 0.
    auto inside = scf::IfOp::create(b, loc, b.getF32Type(), below(j, N), true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&inside.getThenRegion().front());
      SmallVector<Value> ivs(batchIvs);
      ivs.append({row, j});
      Value x = dot;
      Value previous = produced(p.qk);
      for (linalg::GenericOp g : p.scores) {
        IRMapping mapping;
        Block &body = g.getRegion().front();
        for (OpOperand &operand : g->getOpOperands()) {
          BlockArgument arg = body.getArgument(operand.getOperandNumber());
          if (arg.use_empty())
            continue;
          if (analysis::unitReshapeSource(operand.get()) == previous || g.isDpsInit(&operand))
            mapping.map(arg, x);
          else
            mapping.map(arg, memref::LoadOp::create(
                                 b, loc, operand.get(),
                                 indices(b, loc, g.getMatchingIndexingMap(&operand), ivs)));
        }
        x = cloneBody(b, g, mapping, ivs).front();
        previous = produced(g);
      }
      scf::YieldOp::create(b, loc, x);
      b.setInsertionPointToStart(&inside.getElseRegion().front());
      scf::YieldOp::create(b, loc, lowest);
    }
    scores.push_back(inside.getResult(0));
  }
  // The new max; the rescale of what came before, exp(m - newMax); the
  // tile's probabilities exp(s - newMax). While the max is -inf (every
  // score so far masked) nothing has been summed: rescale 1, probabilities
  // 0 (exp(-inf - -inf) would be NaN).
  Value newMax = m;
  for (Value s : scores)
    newMax = apply(p.max, {s, newMax});
  Value allMasked = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, newMax, lowest);
  auto expOf = [&](Value x) { return apply(p.exp, {apply(p.sub, {x, newMax})}); };
  Value rescale = arith::SelectOp::create(b, loc, allMasked, f32(1.0), expOf(m));
  Value sum = arith::MulFOp::create(b, loc, l, rescale);
  SmallVector<Value> probabilities;
  for (Value s : scores) {
    Value prob = arith::SelectOp::create(b, loc, allMasked, f32(0.0), expOf(s));
    probabilities.push_back(prob);
    sum = apply(p.sum, {prob, sum});
  }
  SmallVector<Value> next = {newMax, sum};
  for (int64_t d = 0; d < valueDim; ++d) {
    Value acc = arith::MulFOp::create(b, loc, state[2 + d], rescale);
    for (auto [jj, prob] : llvm::enumerate(probabilities)) {
      Value v = memref::LoadOp::create(b, loc, vTile, ValueRange{index(jj), index(d)});
      acc = apply(p.pv, {prob, v, acc});
    }
    next.push_back(acc);
  }
  return next;
}

/// Query `row`'s q (zeros past the last row).
SmallVector<Value> AttentionEmitter::loadQ(Value row, Value valid) {
  auto loadQ = scf::IfOp::create(b, loc, SmallVector<Type>(headDim, b.getF32Type()), valid, true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&loadQ.getThenRegion().front());
  SmallVector<Value> values;
  for (int64_t d = 0; d < headDim; ++d)
    values.push_back(load(p.qk, 0, row, zero, index(d)));
  scf::YieldOp::create(b, loc, values);
  b.setInsertionPointToStart(&loadQ.getElseRegion().front());
  scf::YieldOp::create(b, loc, SmallVector<Value>(headDim, f32(0.0)));
  return SmallVector<Value>(loadQ.getResults());
}

/// (max, sum, out[valueDim]) before any key: the fills' values.
SmallVector<Value> AttentionEmitter::initialState() {
  SmallVector<Value> init = {fillValue(p.maxFill), fillValue(p.sumFill)};
  init.append(valueDim, fillValue(p.pvFill));
  return init;
}

/// The output row from the state after the last key: divided by the sum,
/// stored in O or in its permuting copy (the head merge).
void AttentionEmitter::storeRow(Value row, ValueRange state) {
  Value dest = produced(p.pv);
  AffineMap place;
  if (p.output) {
    dest = produced(p.output);
    place = inversePermutation(p.output.getIndexingMapsArray()[0]);
  }
  // PyTorch's safe softmax: a row masked whole (its max still -inf) is
  // zeros.
  Value hidden;
  if (p.safeWhere)
    hidden = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, state[0],
                                   fillValue(p.maxFill));
  for (int64_t d = 0; d < valueDim; ++d) {
    SmallVector<Value> at(batchIvs);
    at.append({row, index(d)});
    if (place)
      at = indices(b, loc, place, at);
    Value out = apply(p.div, {state[2 + d], state[1]});
    if (hidden)
      out = arith::SelectOp::create(b, loc, hidden, f32(0.0), out);
    memref::StoreOp::create(b, loc, out, dest, at);
  }
}

/// Query `row` of the batch (GPU: a thread's): q and the state in
/// registers, the tiles of keys, the output row stored. Every thread runs
/// the tiles' loop (it stages keys for the others); a row past the last
/// computes nothing.
void AttentionEmitter::emitRow(Value row, Value tid, Value threads,
                               const launch::LaunchTarget &target) {
  Value valid = below(row, M);
  SmallVector<Value> q = loadQ(row, valid);
  Value tiles = arith::CeilDivUIOp::create(b, loc, N, index(tileKeys));
  auto keys = scf::ForOp::create(b, loc, zero, tiles, one, initialState());
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(keys.getBody());
    Value j0 = arith::MulIOp::create(b, loc, keys.getInductionVar(), index(tileKeys));
    stage(j0, tid, threads, target);
    ValueRange state = keys.getRegionIterArgs();
    auto update = scf::IfOp::create(b, loc, ValueRange(state).getTypes(), valid, true);
    b.setInsertionPointToStart(&update.getThenRegion().front());
    scf::YieldOp::create(b, loc, tile(row, j0, state, q));
    b.setInsertionPointToStart(&update.getElseRegion().front());
    scf::YieldOp::create(b, loc, state);
    b.setInsertionPointAfter(update);
    scf::YieldOp::create(b, loc, update.getResults());
  }
  auto store = scf::IfOp::create(b, loc, valid, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&store.getThenRegion().front());
  storeRow(row, keys.getResults());
}

void AttentionEmitter::emit(StringAttr name, const launch::LaunchTarget &target) {
  MLIRContext *ctx = b.getContext();
  zero = index(0);
  one = index(1);
  SmallVector<Value> qkSizes, pvSizes;
  for (Range r : p.qk.createLoopRanges(b, loc))
    qkSizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
  M = qkSizes[p.batch];
  N = qkSizes[p.batch + 1];
  headDim = p.qk.getStaticLoopRanges().back();
  valueDim = p.pv.getStaticLoopRanges()[p.batch + 1];
  cooperative = target.hasCooperativeThreads();
  tileKeys = cooperative ? keysPerTile(headDim, valueDim) : kHostKeys;
  int64_t rows = cooperative ? kGpuRows : kHostRows;
  Value threads = target.threadsPerBlock(b, loc, [&](Value) { return index(kGpuRows); });
  auto tileType = [&](int64_t dim, Attribute space) {
    return MemRefType::get({tileKeys, dim}, b.getF32Type(), MemRefLayoutAttrInterface(), space);
  };
  SmallVector<Type> shared;
  if (cooperative) {
    auto workgroup = ::mlir::gpu::AddressSpaceAttr::get(ctx, ::mlir::gpu::AddressSpace::Workgroup);
    shared = {tileType(headDim, workgroup), tileType(valueDim, workgroup)};
  }
  matmul::Parts batchOnly; // batchGrid and forEachBatch read the batch count
  batchOnly.batch = p.batch;
  auto launch = buildKernelLaunch(b, loc, name.getValue(),
                                  {matmul::tilesOf(b, loc, M, rows), one,
                                   matmul::batchGrid(b, loc, qkSizes, batchOnly), threads, one,
                                   one},
                                  shared);
  b.setInsertionPointToStart(&launch.getBody().front());
  zero = index(0);
  one = index(1);
  // Sizes again, inside the launch (it captures what it reads).
  qkSizes.clear();
  for (Range r : p.qk.createLoopRanges(b, loc))
    qkSizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
  M = qkSizes[p.batch];
  N = qkSizes[p.batch + 1];
  if (cooperative) {
    kTile = launch.getWorkgroupAttributions()[0];
    vTile = launch.getWorkgroupAttributions()[1];
  } else {
    // Allocated once, where the launch begins (an alloca in a loop would
    // grow the stack each iteration).
    auto buffer = [&](int64_t rows, int64_t cols) {
      return memref::AllocaOp::create(b, loc, MemRefType::get({rows, cols}, b.getF32Type()));
    };
    kTile = buffer(headDim, tileKeys); // transposed: [dim][keys]
    vTile = buffer(tileKeys, valueDim);
    qBuffer = buffer(rows, headDim);
    stateBuffer = buffer(rows, valueDim + 2);
  }
  Value firstRow = arith::MulIOp::create(b, loc, launch.getBlockIds().x, index(rows));
  matmul::forEachBatch(b, loc, launch, qkSizes, batchOnly, [&](ArrayRef<Value> ivs) {
    batchIvs.assign(ivs.begin(), ivs.end());
    if (cooperative) {
      Value tid = launch.getThreadIds().x;
      emitRow(arith::AddIOp::create(b, loc, firstRow, tid), tid, threads, target);
      return;
    }
    emitHostRows(firstRow, rows, target);
  });
  finishLaunch(b, loc, launch);
}

} // namespace attention

using attention::AttentionEmitter;

LogicalResult checkAttentionKernel(ArrayRef<linalg::LinalgOp> ops,
                                   function_ref<InFlightDiagnostic()> refuse) {
  AttentionParts parts;
  return analysis::analyzeAttention(ops, refuse, parts);
}

LogicalResult mapAttentionKernel(OpBuilder &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops,
                                 const launch::LaunchTarget &target) {
  OpBuilder::InsertionGuard guard(b);
  AttentionParts parts;
  // Checked on tensors (kf-assign-kernel-mappings); on buffers the same ops
  // match, unless a pass in between rewrote them.
  auto refuse = [&] {
    linalg::LinalgOp first = ops.front();
    return std::move(emitError(first.getLoc())
                     << "attention kernel '" << name.getValue()
                     << "' no longer holds the attention its mapping was chosen for: ");
  };
  if (failed(analysis::analyzeAttention(ops, refuse, parts)))
    return failure();
  AttentionEmitter(b, parts.qk.getLoc(), parts).emit(name, target);
  return success();
}

} // namespace kfuse::gpu
