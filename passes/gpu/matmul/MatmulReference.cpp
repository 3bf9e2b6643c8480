//===- MatmulReference.cpp - the 16x16 shared-memory tile matmul ----------===//
//
// The textbook tiled matmul, kept as a reference for tests
// (kf-assign-kernel-mappings{matmul=reference}) and as the host runtime's
// mapping for the dtypes its register-tiled kernel does not take: each
// block stages a 16x16 tile of A and of B in shared memory per step of K,
// each thread accumulates one element, the epilogue applied in registers.
//
// Either operand may be read transposed in place (`a.t() @ b`, `x @ w.t()`:
// kf-to-linalg folds the transpose into the matmul's indexing map). The
// tiles are staged so that the global reads stay coalesced for both
// layouts: consecutive threads (tx) always read consecutive elements of the
// operand's contiguous (last) dim, and a transposed operand's element is
// written to shared memory at the swapped place instead (its tile padded
// to 17 columns, so that those column writes fall in different banks).
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/matmul/MatmulParts.h"

#include "passes/launch/MappingUtils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace kfuse::gpu::matmul {

namespace {

constexpr int64_t kTile = 16;

/// Stages one 16x16 tile of operand `o` in shared memory: `tileBuf`[r][c] =
/// the operand as the matmul reads it ([rows, cols]) at (rBase + r, cBase +
/// c), zero past its edges. Thread (ty, tx) reads the stored element whose
/// last index is tx (coalesced): (ty, tx) as it is, or (tx, ty) of the tile
/// when the operand is stored transposed.
void stageTile(OpBuilder &b, Location loc, const Access &x, unsigned o, Value tileBuf,
               Value rBase, Value cBase, Value rows, Value cols, Value ty, Value tx,
               Value zero) {
  bool transposed = x.parts.transposed[o];
  Value r = transposed ? tx : ty, c = transposed ? ty : tx;
  Value i = arith::AddIOp::create(b, loc, rBase, r);
  Value j = arith::AddIOp::create(b, loc, cBase, c);
  Value v = o == 0 ? x.loadA(b, loc, i, j, rows, cols, zero)
                   : x.loadB(b, loc, i, j, rows, cols, zero);
  memref::StoreOp::create(b, loc, v, tileBuf, ValueRange{r, c});
}

} // namespace

void mapReference(OpBuilder &b, StringAttr name, Parts &parts,
                  const launch::LaunchTarget &target) {
  OpBuilder::InsertionGuard guard(b);
  Location loc = parts.matmul.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> sizes = loopSizes(b, loc, parts);
  Value M = sizes[parts.batch], N = sizes[parts.batch + 1];
  SmallVector<Value> ks = stepKs(b, loc, parts); // a chain's matmuls have their own K
  bool anyTransposed = llvm::any_of(parts.steps(), [](const Parts *step) {
    return step->transposed[0] || step->transposed[1];
  });
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value tile = arith::ConstantIndexOp::create(b, loc, kTile);
  // Cooperating threads stage the tiles of A and B through workgroup
  // memory, a thread an element; a block of one thread runs the elements
  // one after the other, reading A and B where they are.
  bool staged = target.hasCooperativeThreads();
  Value threads = target.threadsPerBlock(b, loc, [&](Value) { return tile; });
  SmallVector<Type> shared;
  if (staged) {
    auto workgroup = ::mlir::gpu::AddressSpaceAttr::get(ctx, ::mlir::gpu::AddressSpace::Workgroup);
    for (unsigned o = 0; o < 2; ++o) {
      // A transposed operand's tile is written by columns: a padding column
      // puts a column's elements in different banks.
      int64_t columns = anyTransposed ? kTile + 1 : kTile;
      Value operand = o == 0 ? parts.a() : parts.b();
      shared.push_back(MemRefType::get({kTile, columns},
                                       cast<MemRefType>(operand.getType()).getElementType(),
                                       MemRefLayoutAttrInterface(), workgroup));
    }
  }
  auto launch = buildKernelLaunch(b, loc, name.getValue(),
                                  {tilesOf(b, loc, N, kTile), tilesOf(b, loc, M, kTile),
                                   batchGrid(b, loc, sizes, parts), threads, threads, one},
                                  shared);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value zeroIndex = arith::ConstantIndexOp::create(b, loc, 0);
  Value rowBase = arith::MulIOp::create(b, loc, launch.getBlockIds().y, tile);
  Value colBase = arith::MulIOp::create(b, loc, launch.getBlockIds().x, tile);
  Value init = initialValue(b, loc, parts);
  Type aType = cast<MemRefType>(parts.a().getType()).getElementType();
  Type bType = cast<MemRefType>(parts.b().getType()).getElementType();
  Value aZero = arith::ConstantOp::create(b, loc, b.getZeroAttr(aType));
  Value bZero = arith::ConstantOp::create(b, loc, b.getZeroAttr(bType));

  forEachBatch(b, loc, launch, sizes, parts, [&](ArrayRef<Value> batchIvs) {
    Access x{parts, SmallVector<Value>(batchIvs), zeroIndex};
    SmallVector<Access> stepAccess;
    for (const Parts *step : parts.steps())
      stepAccess.push_back(Access{*step, SmallVector<Value>(batchIvs), zeroIndex});
    if (!staged) {
      // One thread: every element of the tile, each a dot product over K.
      auto rows = scf::ForOp::create(b, loc, zeroIndex, tile, one);
      OpBuilder::InsertionGuard g(b);
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
      Value sum = init;
      for (auto [s, step] : llvm::enumerate(stepAccess)) {
        const Parts &p = step.parts;
        auto dot = scf::ForOp::create(
            b, loc, zeroIndex, ks[s], one, ValueRange{sum},
            [&](OpBuilder &nb, Location l, Value k, ValueRange acc) {
              Value a = memref::LoadOp::create(nb, l, p.a(), step.at(nb, l, 0, row, col, k));
              Value bv = memref::LoadOp::create(nb, l, p.b(), step.at(nb, l, 1, row, col, k));
              scf::YieldOp::create(nb, l, multiplyAdd(nb, p, a, bv, acc[0]));
            });
        sum = dot.getResult(0);
      }
      x.finish(b, loc, sum, row, col);
      return;
    }
    Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
    Value row = arith::AddIOp::create(b, loc, rowBase, ty);
    Value col = arith::AddIOp::create(b, loc, colBase, tx);
    Value aTile = launch.getWorkgroupAttributions()[0];
    Value bTile = launch.getWorkgroupAttributions()[1];
    Value total = init;
    for (auto [s, at] : llvm::enumerate(stepAccess)) {
      Value K = ks[s];
      Value steps = arith::CeilDivUIOp::create(b, loc, K, tile);
      auto kLoop = scf::ForOp::create(
          b, loc, zeroIndex, steps, one, ValueRange{total},
          [&](OpBuilder &nb, Location l, Value step, ValueRange acc) {
            Value k0 = arith::MulIOp::create(nb, l, step, tile);
            // aTile = A[rowBase.., k0..], bTile = B[k0.., colBase..]; zero
            // past the edges.
            stageTile(nb, l, at, 0, aTile, rowBase, k0, M, K, ty, tx, aZero);
            stageTile(nb, l, at, 1, bTile, k0, colBase, K, N, ty, tx, bZero);
            target.barrier(nb, l);
            auto inner = scf::ForOp::create(
                nb, l, zeroIndex, tile, one, acc,
                [&](OpBuilder &ib, Location il, Value k, ValueRange sum) {
                  Value av = memref::LoadOp::create(ib, il, aTile, ValueRange{ty, k});
                  Value bvv = memref::LoadOp::create(ib, il, bTile, ValueRange{k, tx});
                  scf::YieldOp::create(ib, il, multiplyAdd(ib, at.parts, av, bvv, sum[0]));
                });
            // The tiles are read by every thread before the next step writes.
            target.barrier(nb, l);
            scf::YieldOp::create(nb, l, inner.getResult(0));
          });
      total = kLoop.getResult(0);
    }
    Value inside = arith::AndIOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, M),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col, N));
    auto guard = scf::IfOp::create(b, loc, inside, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    x.finish(b, loc, total, row, col);
  });
  finishLaunch(b, loc, launch);
}

} // namespace kfuse::gpu::matmul
