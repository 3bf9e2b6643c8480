//===- MatmulKernels.cpp - matmul kernels as shared-memory tiles ----------===//
//
// The textbook tiled matmul (each block stages a 16x16 tile of A and of B in
// shared memory per step of K, each thread accumulates one element), with
// the kernel's epilogue applied in registers. Upstream's linalg tiling and
// promotion could build the tiles, but not keep kfuse's fused epilogue in
// the same launch; correctness first, speed later (no register tiling, no
// tensor cores, no double buffering).
//
// Either operand may be read transposed in place (`a.t() @ b`, `x @ w.t()`:
// kf-to-linalg folds the transpose into the matmul's indexing map). The
// tiles are staged so that the global reads stay coalesced for both
// layouts: consecutive threads (tx) always read consecutive elements of the
// operand's contiguous (last) dim, 16 elements (64 bytes of f32) per
// half-warp, and a transposed operand's element is written to shared memory
// at the swapped place instead (its tile padded to 17 columns, so that
// those column writes fall in different banks).
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/MatmulKernels.h"

#include "passes/gpu/MappingUtils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace kfuse::gpu {

namespace {

Value filled(linalg::FillOp fill) {
  return fill.hasPureTensorSemantics() ? fill.getResult(0) : fill.getDpsInits()[0];
}

struct Parts {
  linalg::FillOp fill;
  linalg::MatmulOp matmul;
  SmallVector<linalg::GenericOp> epilogue;
  /// Whether A is stored [k, m] and B [n, k] (read transposed in place).
  bool transposed[2] = {false, false};
};

/// Whether the matmul reads each operand as it is (A [m, k], B [k, n]) or
/// transposed (A [k, m], B [n, k]), its result being [m, n]; failure for any
/// other indexing (broadcasts).
LogicalResult readLayouts(linalg::MatmulOp matmul, bool (&transposed)[2]) {
  MLIRContext *ctx = matmul.getContext();
  AffineExpr m = getAffineDimExpr(0, ctx), n = getAffineDimExpr(1, ctx),
             k = getAffineDimExpr(2, ctx);
  auto map = [&](AffineExpr i, AffineExpr j) { return AffineMap::get(3, 0, {i, j}, ctx); };
  SmallVector<AffineMap> maps = matmul.getIndexingMapsArray();
  if (maps.size() != 3 || maps[2] != map(m, n))
    return failure();
  AffineExpr plain[2][2] = {{m, k}, {k, n}};
  for (unsigned o = 0; o < 2; ++o) {
    auto [i, j] = plain[o];
    if (maps[o] == map(i, j))
      transposed[o] = false;
    else if (maps[o] == map(j, i))
      transposed[o] = true;
    else
      return failure();
  }
  return success();
}

/// The parts of a matmul kernel, in program order, checked (on tensors);
/// `refuse` says what does not fit.
LogicalResult analyze(ArrayRef<linalg::LinalgOp> ops,
                      function_ref<InFlightDiagnostic()> refuse, Parts &parts) {
  for (linalg::LinalgOp op : ops) {
    if (auto fill = dyn_cast<linalg::FillOp>(op.getOperation())) {
      if (parts.fill || parts.matmul)
        return refuse() << "a fill that does not start the matmul";
      parts.fill = fill;
    } else if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation())) {
      if (parts.matmul)
        return refuse() << "two matmuls in one kernel";
      parts.matmul = matmul;
    } else if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation())) {
      if (!parts.matmul)
        return refuse() << (generic.getNumReductionLoops()
                                ? "a batched matmul (a linalg.generic) is not mapped yet"
                                : "an op before the matmul (a prologue)");
      parts.epilogue.push_back(generic);
    } else {
      return refuse() << "it holds a " << op->getName().getStringRef();
    }
  }
  if (!parts.matmul)
    return refuse() << "it holds no 2-D linalg.matmul (batched matmuls are generics)";
  if (!parts.fill || filled(parts.fill) != parts.matmul.getDpsInits()[0] ||
      !parts.fill.getInputs()[0].getDefiningOp<arith::ConstantOp>())
    return refuse() << "the matmul does not start from a constant fill";
  if (failed(readLayouts(parts.matmul, parts.transposed)))
    return refuse() << "the matmul's operands are broadcast or permuted other than "
                       "transposed";
  SmallVector<int64_t> mnk = parts.matmul.getStaticLoopRanges();
  llvm::DenseSet<Value> written = {parts.matmul.getDpsInits()[0]};
  if (parts.matmul->getNumResults())
    written.insert(parts.matmul->getResult(0));
  for (linalg::GenericOp g : parts.epilogue) {
    SmallVector<int64_t> sizes = g.getStaticLoopRanges();
    if (g.getNumReductionLoops() || sizes.size() != 2 ||
        (sizes[0] != mnk[0] && !ShapedType::isDynamic(sizes[0]) &&
         !ShapedType::isDynamic(mnk[0])) ||
        (sizes[1] != mnk[1] && !ShapedType::isDynamic(sizes[1]) &&
         !ShapedType::isDynamic(mnk[1])))
      return refuse() << "an epilogue op is not elementwise over the matmul's result";
    for (OpOperand &init : g.getDpsInitsMutable())
      if (!g.getMatchingIndexingMap(&init).isIdentity())
        return refuse() << "a result is not written in iteration order";
    for (OpOperand *input : g.getDpsInputOperands())
      if (written.count(input->get()) && !g.getMatchingIndexingMap(input).isIdentity())
        return refuse() << "an op reads another's result at other elements";
    for (Value v : g.getDpsInits())
      written.insert(v);
    for (Value v : g->getResults())
      written.insert(v);
  }
  return success();
}

/// The parts of a (bufferized) matmul kernel, which analyze accepted on
/// tensors.
Parts partsOf(ArrayRef<linalg::LinalgOp> ops) {
  Parts parts;
  for (linalg::LinalgOp op : ops) {
    if (auto fill = dyn_cast<linalg::FillOp>(op.getOperation()))
      parts.fill = fill;
    else if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation()))
      parts.matmul = matmul;
    else
      parts.epilogue.push_back(cast<linalg::GenericOp>(op.getOperation()));
  }
  (void)readLayouts(parts.matmul, parts.transposed);
  return parts;
}

/// Computes element (row, col) of the epilogue from `acc`, the matmul's
/// value there, keeping values in registers from op to op; stores every
/// result (and the matmul's).
void finish(OpBuilder &b, Location loc, Parts &parts, Value acc, Value row, Value col) {
  Value c = parts.matmul.getDpsInits()[0];
  memref::StoreOp::create(b, loc, acc, c, ValueRange{row, col});
  llvm::DenseMap<Value, Value> inRegister = {{c, acc}};
  SmallVector<Value> ivs = {row, col};
  for (linalg::GenericOp g : parts.epilogue) {
    IRMapping mapping;
    Block &body = g.getRegion().front();
    for (OpOperand *input : g.getDpsInputOperands()) {
      BlockArgument arg = body.getArgument(input->getOperandNumber());
      if (arg.use_empty())
        continue;
      AffineMap map = g.getMatchingIndexingMap(input);
      auto it = inRegister.find(input->get());
      if (map.isIdentity() && it != inRegister.end()) {
        mapping.map(arg, it->second);
        continue;
      }
      mapping.map(arg, memref::LoadOp::create(b, loc, input->get(), indices(b, loc, map, ivs)));
    }
    SmallVector<Value> results = cloneBody(b, g, mapping, ivs);
    for (auto [v, init] : llvm::zip(results, g.getDpsInits())) {
      memref::StoreOp::create(b, loc, v, init, ValueRange{row, col});
      inRegister[init] = v;
    }
  }
}

/// acc = matmul body(a, b, acc).
Value multiplyAdd(OpBuilder &b, Parts &parts, Value a, Value bv, Value acc) {
  Block &body = parts.matmul->getRegion(0).front();
  IRMapping mapping;
  mapping.map(body.getArgument(0), a);
  mapping.map(body.getArgument(1), bv);
  mapping.map(body.getArgument(2), acc);
  return cloneBody(b, parts.matmul, mapping, {}).front();
}

/// A value of `buffer` at (i, j), or zero outside [0, rows) x [0, cols).
Value loadOrZero(OpBuilder &b, Location loc, Value buffer, Value i, Value j, Value rows,
                 Value cols, Value zero) {
  Value inRows = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, i, rows);
  Value inCols = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, j, cols);
  Value inside = arith::AndIOp::create(b, loc, inRows, inCols);
  auto branch = scf::IfOp::create(b, loc, zero.getType(), inside, true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&branch.getThenRegion().front());
  scf::YieldOp::create(b, loc, memref::LoadOp::create(b, loc, buffer, ValueRange{i, j}).getResult());
  b.setInsertionPointToStart(&branch.getElseRegion().front());
  scf::YieldOp::create(b, loc, zero);
  return branch.getResult(0);
}

/// Stages one 16x16 tile of a matmul operand in shared memory: `tileBuf`
/// [r][c] = operand[rBase + r, cBase + c] of the operand as the matmul reads
/// it ([rows, cols]; zero past its edges). Thread (ty, tx) reads the stored
/// element whose last index is tx (coalesced): (ty, tx) as it is, or (tx, ty)
/// of the tile when the operand is stored transposed ([cols, rows]).
void stageTile(OpBuilder &b, Location loc, Value operand, bool transposed, Value tileBuf,
               Value rBase, Value cBase, Value rows, Value cols, Value ty, Value tx,
               Value zero) {
  Value r = transposed ? tx : ty, c = transposed ? ty : tx;
  Value i = arith::AddIOp::create(b, loc, rBase, r);
  Value j = arith::AddIOp::create(b, loc, cBase, c);
  Value v = transposed ? loadOrZero(b, loc, operand, j, i, cols, rows, zero)
                       : loadOrZero(b, loc, operand, i, j, rows, cols, zero);
  memref::StoreOp::create(b, loc, v, tileBuf, ValueRange{r, c});
}

} // namespace

LogicalResult checkMatmulKernel(ArrayRef<linalg::LinalgOp> ops,
                                function_ref<InFlightDiagnostic()> refuse) {
  Parts parts;
  return analyze(ops, refuse, parts);
}

void mapMatmulKernel(OpBuilder &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops,
                     bool host) {
  OpBuilder::InsertionGuard guard(b);
  Parts parts = partsOf(ops);
  linalg::LinalgOp last = ops.back();
  Location loc = last.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> mnk;
  for (Range r : cast<linalg::LinalgOp>(parts.matmul.getOperation()).createLoopRanges(b, loc))
    mnk.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
  Value M = mnk[0], N = mnk[1], K = mnk[2];
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value tile = arith::ConstantIndexOp::create(b, loc, kTile);
  auto tiles = [&](Value n) {
    return arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, n, tile), one);
  };
  Value threads = host ? one : tile;
  SmallVector<Type> shared;
  if (!host) {
    auto workgroup = ::mlir::gpu::AddressSpaceAttr::get(ctx, ::mlir::gpu::AddressSpace::Workgroup);
    for (auto [o, operand] : llvm::enumerate(parts.matmul.getDpsInputs())) {
      // A transposed operand's tile is written by columns: a padding column
      // puts a column's elements in different banks.
      int64_t columns = parts.transposed[o] ? kTile + 1 : kTile;
      shared.push_back(MemRefType::get({kTile, columns},
                                       cast<MemRefType>(operand.getType()).getElementType(),
                                       MemRefLayoutAttrInterface(), workgroup));
    }
  }
  Value tilesDown = tiles(M), tilesAcross = tiles(N);
  auto launch = buildKernelLaunch(
      b, loc, name.getValue(),
      {tilesAcross, tilesDown, one, threads, threads, one}, shared);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value zeroIndex = arith::ConstantIndexOp::create(b, loc, 0);
  Value rowBase = arith::MulIOp::create(b, loc, launch.getBlockIds().y, tile);
  Value colBase = arith::MulIOp::create(b, loc, launch.getBlockIds().x, tile);
  auto fillValue = parts.fill.getInputs()[0].getDefiningOp<arith::ConstantOp>();
  Value init = arith::ConstantOp::create(b, loc, fillValue.getValue());
  Value A = parts.matmul.getDpsInputs()[0], B = parts.matmul.getDpsInputs()[1];

  if (host) {
    // One thread: every element of the tile, each a dot product over K.
    auto rows = scf::ForOp::create(b, loc, zeroIndex, tile, one);
    b.setInsertionPointToStart(rows.getBody());
    Value row = arith::AddIOp::create(b, loc, rowBase, rows.getInductionVar());
    auto cols = scf::ForOp::create(b, loc, zeroIndex, tile, one);
    b.setInsertionPointToStart(cols.getBody());
    Value col = arith::AddIOp::create(b, loc, colBase, cols.getInductionVar());
    Value inside = arith::AndIOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, M),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col, N));
    auto guard = scf::IfOp::create(b, loc, inside, false);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    auto dot = scf::ForOp::create(
        b, loc, zeroIndex, K, one, ValueRange{init},
        [&](OpBuilder &nb, Location l, Value k, ValueRange acc) {
          // Through the matmul's maps: either operand may be transposed.
          SmallVector<Value> ivs = {row, col, k};
          Value a = memref::LoadOp::create(
              nb, l, A, indices(nb, l, parts.matmul.getIndexingMapsArray()[0], ivs));
          Value bv = memref::LoadOp::create(
              nb, l, B, indices(nb, l, parts.matmul.getIndexingMapsArray()[1], ivs));
          scf::YieldOp::create(nb, l, multiplyAdd(nb, parts, a, bv, acc[0]));
        });
    finish(b, loc, parts, dot.getResult(0), row, col);
  } else {
    Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
    Value row = arith::AddIOp::create(b, loc, rowBase, ty);
    Value col = arith::AddIOp::create(b, loc, colBase, tx);
    Value aTile = launch.getWorkgroupAttributions()[0];
    Value bTile = launch.getWorkgroupAttributions()[1];
    Type aType = cast<MemRefType>(A.getType()).getElementType();
    Type bType = cast<MemRefType>(B.getType()).getElementType();
    Value aZero = arith::ConstantOp::create(b, loc, b.getZeroAttr(aType));
    Value bZero = arith::ConstantOp::create(b, loc, b.getZeroAttr(bType));
    Value steps = arith::CeilDivUIOp::create(b, loc, K, tile);
    auto kLoop = scf::ForOp::create(
        b, loc, zeroIndex, steps, one, ValueRange{init},
        [&](OpBuilder &nb, Location l, Value step, ValueRange acc) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          Value k0 = arith::MulIOp::create(b, l, step, tile);
          // aTile = A[rowBase.., k0..], bTile = B[k0.., colBase..]; zero
          // past the edges.
          stageTile(b, l, A, parts.transposed[0], aTile, rowBase, k0, M, K, ty, tx, aZero);
          stageTile(b, l, B, parts.transposed[1], bTile, k0, colBase, K, N, ty, tx, bZero);
          ::mlir::gpu::BarrierOp::create(b, l);
          Value c16 = arith::ConstantIndexOp::create(b, l, kTile);
          auto inner = scf::ForOp::create(
              b, l, zeroIndex, c16, one, acc,
              [&](OpBuilder &ib, Location il, Value k, ValueRange sum) {
                Value av = memref::LoadOp::create(ib, il, aTile, ValueRange{ty, k});
                Value bvv = memref::LoadOp::create(ib, il, bTile, ValueRange{k, tx});
                scf::YieldOp::create(ib, il, multiplyAdd(ib, parts, av, bvv, sum[0]));
              });
          // The tiles are read by every thread before the next step writes.
          ::mlir::gpu::BarrierOp::create(b, l);
          scf::YieldOp::create(b, l, inner.getResult(0));
        });
    Value inside = arith::AndIOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, M),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col, N));
    auto guard = scf::IfOp::create(b, loc, inside, false);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    finish(b, loc, parts, kLoop.getResult(0), row, col);
  }
  finishLaunch(b, loc, launch);
}

} // namespace kfuse::gpu
