//===- MatmulTensorCore.cpp - the matmul on tensor cores ------------------===//
//
// The sm_80 tensor-core GEMM (CUTLASS's and Triton's layout of the work),
// through the nvgpu ops upstream lowers to NVVM (convert-nvgpu-to-nvvm),
// built as the kernel's #kf.matmul_tiles say (MatmulTiles.cpp chose them):
//   block (bx, by, bz): an m x n tile of C of batch bz (the blocks taken
//   in groups of group_m rows of tiles, for L2), warps_m x warps_n warps,
//   each an (m / warps_m) x (n / warps_n) part: 16x8 mma.sync.m16n8k16
//   tiles of f32 accumulators in registers;
//   A and B staged in shared memory by steps of k along K, `stages` steps
//   in flight: while the warps multiply step s, cp.async (16 bytes,
//   bypassing L1) fills step s + stages - 1; one barrier a step; a tail
//   chunk is zero-filled by cp.async's src-size (any M, N, K). Each
//   operand is staged in its
//   global layout, its contiguous dim contiguous in shared memory too
//   ([mn][k] or [k][mn], rows padded by 16 bytes: the 8 rows an ldmatrix
//   reads fall in different banks), so an operand read transposed in place
//   is staged with the same coalesced copies and read with ldmatrix.trans
//   instead of ldmatrix;
//   per 16 of K, a warp loads its fragments with ldmatrix.x4 and issues
//   its mma.sync (MatmulTensorCoreFragments.cpp);
//   then the epilogue on each accumulator in registers and one masked store
//   of each result.
// f16 and bf16 (f32 accumulation); f32 as TF32 only when asked (`tf32`:
// mma.sync.m16n8k8, 8 of K a step, 4 f32 a cp.async).
// cp.async needs 16-byte aligned sources: when the contiguous dim of an
// operand is not a multiple of 16 bytes (or its layout is not the
// identity), the same stages are filled by guarded scalar loads instead
// (decided once a launch, at run time for dynamic sizes).
// kfuse's buffers are 16-byte aligned (cudaMalloc: 256); the stages are in
// dynamic shared memory (MatmulTilesAttr::sharedBytes), 16-byte aligned.
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/matmul/MatmulTensorCore.h"

#include "passes/launch/MappingUtils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace kfuse::gpu::matmul {

namespace tc {

Emitter::Chunk Emitter::chunk(unsigned o, int64_t i, Value k0) {
  Value c = add(tid, i * z.threads);
  Value base = o == 0 ? m0 : n0;
  Chunk ch;
  if (kLast(o)) {
    ch.row = div(c, z.bk / z.chunk);
    ch.col = mul(rem(c, z.bk / z.chunk), z.chunk);
    ch.mn = add(base, ch.row);
    ch.k = add(k0, ch.col);
    ch.along = ch.k, ch.alongBound = K, ch.across = ch.mn, ch.acrossBound = rows(o);
  } else {
    ch.row = div(c, z.tile(o) / z.chunk);
    ch.col = mul(rem(c, z.tile(o) / z.chunk), z.chunk);
    ch.k = add(k0, ch.row);
    ch.mn = add(base, ch.col);
    ch.along = ch.mn, ch.alongBound = rows(o), ch.across = ch.k, ch.acrossBound = K;
  }
  return ch;
}

/// The global indices of operand `o` at (mn, k).
SmallVector<Value> Emitter::global(const Access &x, unsigned o, Value mn, Value k) {
  return o == 0 ? x.at(b, loc, 0, mn, Value(), k) : x.at(b, loc, 1, Value(), mn, k);
}

/// Operand `o`'s tile at k0 into `stage` with cp.async, the elements past
/// the edges zero-filled (src-size); returns the copies' tokens.
void Emitter::copyTile(const Access &x, unsigned o, Value stage, Value k0,
                       SmallVectorImpl<Value> &tokens) {
  Value operand = o == 0 ? parts.a() : parts.b();
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  for (int64_t i = 0; i < z.copies[o]; ++i) {
    Chunk ch = chunk(o, i, k0);
    // min(max(bound - along, 0), chunk) elements, none on a row past the edge.
    Value left =
        arith::SelectOp::create(b, loc, ult(ch.along, ch.alongBound),
                                arith::SubIOp::create(b, loc, ch.alongBound, ch.along), idx(0));
    Value count = arith::MinUIOp::create(b, loc, left, idx(z.chunk));
    Value inside = ult(ch.across, ch.acrossBound);
    count = arith::SelectOp::create(b, loc, inside, count, idx(0));
    // A copy of nothing still gets an address: the operand's first
    // element, not one past its end.
    Value some = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, count, idx(0));
    Value mn = arith::SelectOp::create(b, loc, some, ch.mn, idx(0));
    Value k = arith::SelectOp::create(b, loc, some, ch.k, idx(0));
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        b, loc, tokenType, smem, ValueRange{at(o, stage, ch.row, ch.col)}, operand,
        global(x, o, mn, k), b.getIndexAttr(z.chunk), count, b.getUnitAttr()));
  }
}

/// The same with scalar loads (any alignment), zero past the edges.
void Emitter::loadTile(const Access &x, unsigned o, Value stage, Value k0) {
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elementOf(smem)));
  for (int64_t i = 0; i < z.copies[o]; ++i) {
    Chunk ch = chunk(o, i, k0);
    Value first = at(o, stage, ch.row, ch.col);
    for (int64_t j = 0; j < z.chunk; ++j) {
      Value mn = kLast(o) ? ch.mn : add(ch.mn, j), k = kLast(o) ? add(ch.k, j) : ch.k;
      Value v = o == 0 ? x.loadA(b, loc, mn, k, M, K, zero) : x.loadB(b, loc, k, mn, K, N, zero);
      memref::StoreOp::create(b, loc, v, smem, ValueRange{add(first, j)});
    }
  }
}

/// Both tiles at k0 into `stage`: cp.async when `aligned` (committed as
/// one group), else scalar loads.
void Emitter::stageTiles(const Access &x, Value aligned, Value stage, Value k0) {
  auto branch = scf::IfOp::create(b, loc, aligned, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&branch.getThenRegion().front());
  SmallVector<Value> tokens;
  copyTile(x, 0, stage, k0, tokens);
  copyTile(x, 1, stage, k0, tokens);
  nvgpu::DeviceAsyncCreateGroupOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), tokens);
  b.setInsertionPointToStart(&branch.getElseRegion().front());
  loadTile(x, 0, stage, k0);
  loadTile(x, 1, stage, k0);
}

} // namespace tc

using namespace tc;

namespace {

/// Whether operand `v` can be copied 16 bytes at a time: an identity
/// layout whose last dim is a multiple of 16 bytes (checked at run time).
Value copiesAligned(OpBuilder &b, Location loc, Value v, int64_t chunk) {
  auto type = cast<MemRefType>(v.getType());
  if (!type.getLayout().isIdentity())
    return arith::ConstantIntOp::create(b, loc, 0, 1);
  Value last = memref::DimOp::create(b, loc, v, type.getRank() - 1);
  Value r = arith::RemUIOp::create(b, loc, last, arith::ConstantIndexOp::create(b, loc, chunk));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, r,
                               arith::ConstantIndexOp::create(b, loc, 0));
}

/// The multistage mainloop of one step (the matmul, or one of a chain's)
/// over its K from the accumulators `inits`; returns them after it.
SmallVector<Value> mainloop(Emitter &e, const Access &x, Value aligned,
                            ArrayRef<Value> inits) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  const Sizes &z = e.z;
  Value zero = e.idx(0), one = e.idx(1);
  Value steps = arith::CeilDivUIOp::create(b, loc, e.K, e.idx(z.bk));
  // The first stages - 1 steps in flight (past K: zero-filled, unread).
  for (int64_t s = 0; s + 1 < z.stages; ++s)
    e.stageTiles(x, aligned, e.idx(s), e.idx(s * z.bk));
  auto kLoop = scf::ForOp::create(b, loc, zero, steps, one, inits);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value s = kLoop.getInductionVar();
    SmallVector<Value> acc(kLoop.getRegionIterArgs());
    // Step s's copies are done (of the groups committed, at most
    // stages - 2 newer ones may still be in flight), and after the
    // barrier every thread's are visible and every warp is done with
    // step s - 1's stage, which step s + stages - 1 then refills while
    // this one is multiplied: one barrier a step (CUTLASS's multistage
    // mainloop). nvgpu's wait takes a token of one group; the count is
    // what matters, so NVVM's op.
    NVVM::CpAsyncWaitGroupOp::create(b, loc, z.stages - 2);
    ::mlir::gpu::BarrierOp::create(b, loc);
    Value next = e.add(s, z.stages - 1);
    e.stageTiles(x, aligned, e.rem(next, z.stages), e.mul(next, z.bk));
    Value stage = e.rem(s, z.stages);
    for (int64_t kk = 0; kk < z.bk; kk += z.mmaK)
      e.multiply(stage, kk, acc);
    scf::YieldOp::create(b, loc, acc);
  }
  // No copy outlives the kernel (those past K copy zeros, unread); the
  // next step's or batch's prologue refills stages other warps may still
  // read.
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  ::mlir::gpu::BarrierOp::create(b, loc);
  return SmallVector<Value>(kLoop.getResults());
}

} // namespace

bool tensorCoreFits(const Parts &parts, bool tf32) {
  Type a = elementOf(parts.a()), bt = elementOf(parts.b()), c = elementOf(parts.c());
  // The matmul's body widens f16 and bf16 to f32 and accumulates there
  // (kf.matmul on f16 or bf16), as mma.sync does; f32 with `tf32` only
  // (its inputs rounded to TF32: 10 bits of mantissa).
  return a == bt && (a.isF16() || a.isBF16() || (tf32 && a.isF32())) && c.isF32();
}

void mapTensorCore(OpBuilder &b, StringAttr name, Parts &parts, kf::MatmulTilesAttr tiles) {
  OpBuilder::InsertionGuard guard(b);
  Location loc = parts.matmul.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> sizes = loopSizes(b, loc, parts);
  Value M = sizes[parts.batch], N = sizes[parts.batch + 1], K = sizes[parts.batch + 2];
  SmallVector<Value> ks = stepKs(b, loc, parts); // a chain's matmuls have their own K
  auto workgroup = ::mlir::gpu::AddressSpaceAttr::get(ctx, ::mlir::gpu::AddressSpace::Workgroup);
  Type element = elementOf(parts.a());
  Sizes z(tiles, element);
  auto shared = MemRefType::get({z.stages * z.stageBoth}, element, MemRefLayoutAttrInterface(),
                                workgroup);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  // The stages in dynamic shared memory, which the NVVM lowering aligns
  // to 16 bytes (cp.async and ldmatrix need it); a workgroup attribution
  // is aligned to its element type only (2 bytes here). Past 48 KiB the
  // runtime opts the kernel in (cuFuncSetAttribute) before its launch.
  int64_t bytes = tiles.sharedBytes(element.getIntOrFloatBitWidth());
  Value sharedBytes = arith::ConstantIntOp::create(b, loc, bytes, 32);
  auto launch = buildKernelLaunch(b, loc, name.getValue(),
                                  {tilesOf(b, loc, N, z.bn), tilesOf(b, loc, M, z.bm),
                                   batchGrid(b, loc, sizes, parts),
                                   arith::ConstantIndexOp::create(b, loc, z.threads), one, one});
  launch.getDynamicSharedMemorySizeMutable().assign(sharedBytes);
  b.setInsertionPointToStart(&launch.getBody().front());
  Emitter e{b, loc, parts, z, M, N, K};
  Value raw = ::mlir::gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), MemRefLayoutAttrInterface(),
                      workgroup));
  e.smem = memref::ViewOp::create(b, loc, shared, raw, arith::ConstantIndexOp::create(b, loc, 0),
                                  ValueRange{});
  e.tid = launch.getThreadIds().x;
  e.lane = e.rem(e.tid, 32);
  Value warp = e.div(e.tid, 32);
  e.wm = e.mul(e.div(warp, z.warpsN), z.warpM);
  e.wn = e.mul(e.rem(warp, z.warpsN), z.warpN);
  // The block's tile: (blockIdx.y, blockIdx.x), or with groups of group_m
  // rows of tiles, the block's place in its group, column after column,
  // so that the blocks running at once read the same A rows and B
  // columns from L2 (Triton's grouped order).
  Value tileM = launch.getBlockIds().y, tileN = launch.getBlockIds().x;
  if (z.groupM > 1) {
    Value gx = launch.getGridSize().x, gy = launch.getGridSize().y;
    Value pid = e.add(arith::MulIOp::create(b, loc, tileM, gx), tileN);
    Value inGroup = e.mul(gx, z.groupM);
    Value first = e.mul(arith::DivUIOp::create(b, loc, pid, inGroup), z.groupM);
    Value rows = arith::MinUIOp::create(b, loc, arith::SubIOp::create(b, loc, gy, first),
                                        e.idx(z.groupM));
    Value place = arith::RemUIOp::create(b, loc, pid, inGroup);
    tileM = e.add(first, arith::RemUIOp::create(b, loc, place, rows));
    tileN = arith::DivUIOp::create(b, loc, place, rows);
  }
  e.m0 = e.mul(tileM, z.bm);
  e.n0 = e.mul(tileN, z.bn);
  // Each step (one but for a chain's matmuls) with its own operands, K
  // and layouts, and whether its operands copy 16 bytes at a time.
  SmallVector<Emitter, 2> stepEmitters;
  SmallVector<Value> aligned;
  for (auto [i, step] : llvm::enumerate(parts.steps())) {
    stepEmitters.push_back(
        Emitter{b, loc, *step, z, M, N, ks[i], e.smem, e.tid, e.lane, e.m0, e.n0, e.wm, e.wn});
    aligned.push_back(arith::AndIOp::create(b, loc, copiesAligned(b, loc, step->a(), z.chunk),
                                            copiesAligned(b, loc, step->b(), z.chunk)));
  }
  Value zero = e.idx(0);
  auto accType = VectorType::get({2, 2}, b.getF32Type());
  // The fill's constant in every accumulator (a splat constant: n-D
  // broadcasts have no NVVM lowering).
  auto fill = cast<arith::ConstantOp>(initialValue(b, loc, parts).getDefiningOp());
  Value init = arith::ConstantOp::create(
      b, loc, accType, DenseElementsAttr::get(accType, ArrayRef<Attribute>{fill.getValue()}));

  forEachBatch(b, loc, launch, sizes, parts, [&](ArrayRef<Value> batchIvs) {
    SmallVector<Value> accumulators(z.fragsM * z.fragsN, init);
    for (auto [i, se] : llvm::enumerate(stepEmitters)) {
      Access sx{se.parts, SmallVector<Value>(batchIvs), zero};
      accumulators = mainloop(se, sx, aligned[i], accumulators);
    }
    Access x{parts, SmallVector<Value>(batchIvs), zero};
    // Accumulator (mi, ni) holds rows lane / 4 and lane / 4 + 8 of its
    // 16x8 tile, columns 2 (lane % 4) and the next.
    Value g = e.div(e.lane, 4), q = e.mul(e.rem(e.lane, 4), 2);
    for (int64_t mi = 0; mi < z.fragsM; ++mi)
      for (int64_t r = 0; r < 2; ++r) {
        Value row = e.add(e.add(e.m0, e.wm), e.add(g, mi * 16 + r * 8));
        auto rowInside = scf::IfOp::create(b, loc, e.ult(row, M), false);
        OpBuilder::InsertionGuard g1(b);
        b.setInsertionPointToStart(&rowInside.getThenRegion().front());
        for (int64_t ni = 0; ni < z.fragsN; ++ni)
          for (int64_t c = 0; c < 2; ++c) {
            Value col = e.add(e.add(e.n0, e.wn), e.add(q, ni * 8 + c));
            auto colInside = scf::IfOp::create(b, loc, e.ult(col, N), false);
            OpBuilder::InsertionGuard g2(b);
            b.setInsertionPointToStart(&colInside.getThenRegion().front());
            Value v = vector::ExtractOp::create(b, loc, accumulators[mi * z.fragsN + ni],
                                                ArrayRef<int64_t>{r, c});
            x.finish(b, loc, v, row, col);
          }
      }
  });
  finishLaunch(b, loc, launch);
}

} // namespace kfuse::gpu::matmul
