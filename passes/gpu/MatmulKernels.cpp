//===- MatmulKernels.cpp - matmul kernels as shared-memory tiles ----------===//
//
// The textbook tiled matmul (each block stages a 16x16 tile of A and of B in
// shared memory per step of K, each thread accumulates one element), with
// the kernel's epilogue applied in registers. Upstream's linalg tiling and
// promotion could build the tiles, but not keep kfuse's fused epilogue in
// the same launch; correctness first, speed later (no register tiling, no
// tensor cores, no double buffering).
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
};

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
  auto standard = linalg::MatmulOp::getDefaultIndexingMaps(parts.matmul.getContext());
  if (parts.matmul.getIndexingMapsArray() != SmallVector<AffineMap>(standard))
    return refuse() << "the matmul's operands are transposed or broadcast";
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
    for (Value operand : parts.matmul.getDpsInputs())
      shared.push_back(MemRefType::get({kTile, kTile},
                                       cast<MemRefType>(operand.getType()).getElementType(),
                                       MemRefLayoutAttrInterface(), workgroup));
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
          Value a = memref::LoadOp::create(nb, l, A, ValueRange{row, k});
          Value bv = memref::LoadOp::create(nb, l, B, ValueRange{k, col});
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
          // Stage A[row, k0 + tx] and B[k0 + ty, col]; zero past the edges.
          Value a = loadOrZero(b, l, A, row, arith::AddIOp::create(b, l, k0, tx), M, K, aZero);
          Value bv = loadOrZero(b, l, B, arith::AddIOp::create(b, l, k0, ty), col, K, N, bZero);
          memref::StoreOp::create(b, l, a, aTile, ValueRange{ty, tx});
          memref::StoreOp::create(b, l, bv, bTile, ValueRange{ty, tx});
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
