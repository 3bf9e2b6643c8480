//===- MatmulWgmma.cpp - the matmul on Hopper's warpgroup tensor cores ----===//
//
// The sm_90a GEMM, through the nvgpu ops upstream lowers to NVVM (the
// design of mlir/test/Examples/NVGPU/Ch4.py, a multistage TMA + wgmma
// GEMM):
//   block (bx, by): a 128 x 128 tile of C, one warpgroup (128 threads)
//   holding it in wgmma accumulators (128 f32 a thread);
//   A [M][K] and B [K][N] staged in shared memory by the Tensor Memory
//   Accelerator (cp.async.bulk.tensor), 64 of K a step, 4 steps in flight:
//   A's 128 x 64 tile in one box, B's 64 x 128 in two 64 x 64 boxes (the
//   128-byte swizzle holds rows of 64 16-bit elements), elements past the
//   edges zero-filled by the TMA (any M, N, K); each stage's mbarrier
//   counts the bytes its copies land (expect_tx) and flips its phase when
//   they have;
//   per step, the warpgroup waits for the stage's phase, multiplies it
//   (wgmma.mma_async m64n128k16, 2 x 4 a step, from shared-memory
//   descriptors; B read MN-major) and, once every warp's multiply of the
//   step before is done, thread 0 refills that step's stage with the step
//   4 - 1 ahead;
//   then the accumulators go to shared memory (the stages' room), and the
//   threads walk the tile a row at a time, 128 consecutive columns, the
//   epilogue on each element and one coalesced store of each result.
// The TMA descriptors are made on the host before the launch
// (nvgpu.tma.create.descriptor: the runtime's mgpuTensorMapEncodeTiledMemref
// through the driver's cuTensorMapEncodeTiled) and read by the kernel from
// device memory.
// Not yet: B read transposed in place (x @ w.t(): K-major B), batches, a
// producer warpgroup (warp specialization), larger tiles, TMA stores; those
// matmuls take the mma.sync kernel (MatmulTensorCore.cpp).
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/matmul/MatmulParts.h"

#include "passes/launch/MappingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace kfuse::gpu::matmul {

namespace {

constexpr int64_t kTileM = 128, kTileN = 128, kStepK = 64, kStages = 4, kThreads = 128;
/// B's box: 64 x 64 (128-byte rows, the swizzle's width).
constexpr int64_t kHalfN = 64;
/// TMA's 128-byte swizzle repeats every 1024 bytes of shared memory: the
/// stages start at such an address.
constexpr int64_t kSwizzleAlign = 1024;

Type elementOf(Value v) { return cast<ShapedType>(v.getType()).getElementType(); }

struct Builder {
  OpBuilder &b;
  Location loc;
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t c) { return c ? add(x, idx(c)) : x; }
  Value mul(Value x, int64_t c) { return arith::MulIOp::create(b, loc, x, idx(c)); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
};

/// The tensor-map type of a box of `rows` x `cols` elements of `element`.
nvgpu::TensorMapDescriptorType tensorMap(MLIRContext *ctx, Type element, int64_t rows,
                                         int64_t cols) {
  auto box = MemRefType::get({rows, cols}, element, MemRefLayoutAttrInterface(),
                             IntegerAttr::get(IntegerType::get(ctx, 64), 3));
  return nvgpu::TensorMapDescriptorType::get(
      ctx, box, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
      nvgpu::TensorMapL2PromoKind::L2PROMO_NONE, nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
}

} // namespace

bool wgmmaFits(const Parts &parts) {
  // One matmul (a chain's products are f32 or wider, never this kernel's
  // f16/bf16: analysis/MatmulChain.h).
  if (!tensorCoreFits(parts, /*tf32=*/false) || parts.batch || parts.transposed[0] ||
      parts.transposed[1] || !parts.chain.empty())
    return false;
  // The accumulators start at zero (nvgpu.warpgroup.mma.init.accumulator).
  auto fill = parts.fill.getInputs()[0].getDefiningOp<arith::ConstantOp>();
  auto zero = fill ? dyn_cast<FloatAttr>(fill.getValue()) : FloatAttr();
  if (!zero || !zero.getValue().isPosZero())
    return false;
  // TMA reads rows of a multiple of 16 bytes: K (A's rows) and N (B's).
  auto a = cast<ShapedType>(parts.a().getType()), bt = cast<ShapedType>(parts.b().getType());
  int64_t K = a.getDimSize(1), N = bt.getDimSize(1);
  return a.getRank() == 2 && bt.getRank() == 2 && !ShapedType::isDynamic(K) &&
         !ShapedType::isDynamic(N) && K % 8 == 0 && N % 8 == 0;
}

void mapWgmma(OpBuilder &b, StringAttr name, Parts &parts) {
  OpBuilder::InsertionGuard guard(b);
  Location loc = parts.matmul.getLoc();
  MLIRContext *ctx = b.getContext();
  Builder e{b, loc};
  SmallVector<Value> sizes = loopSizes(b, loc, parts);
  Value M = sizes[0], N = sizes[1], K = sizes[2];
  Type element = elementOf(parts.a());
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  // The TMA descriptors, on the host (of the operands as the kernel reads
  // them: the runtime takes sizes and strides from their descriptors).
  // They cross into the kernel as the addresses they lower to, i64: the
  // kernel's signature is converted with the GPU's types, which know no
  // nvgpu type (upstream lowers nvgpu before outlining; kfuse outlines
  // first), and an unrealized cast there and back would fold away.
  auto pointer = LLVM::LLVMPointerType::get(ctx);
  Type i64 = b.getI64Type();
  auto descriptor = [&](Value operand, nvgpu::TensorMapDescriptorType type) {
    auto unranked = UnrankedMemRefType::get(element, Attribute());
    Value cast = memref::CastOp::create(b, loc, unranked, operand);
    ArrayRef<int64_t> box = type.getTensor().getShape();
    Value map = nvgpu::TmaCreateDescriptorOp::create(b, loc, type, cast,
                                                     ValueRange{e.idx(box[0]), e.idx(box[1])});
    Value address = UnrealizedConversionCastOp::create(b, loc, pointer, map).getResult(0);
    return LLVM::PtrToIntOp::create(b, loc, i64, address).getResult();
  };
  auto fromAddress = [&](Value address, Type type) {
    Value p = LLVM::IntToPtrOp::create(b, loc, pointer, address);
    return UnrealizedConversionCastOp::create(b, loc, type, p).getResult(0);
  };
  auto mapA = tensorMap(ctx, element, kTileM, kStepK);
  auto mapB = tensorMap(ctx, element, kStepK, kHalfN);
  Value pointerA = descriptor(parts.a(), mapA), pointerB = descriptor(parts.b(), mapB);
  int64_t stageA = kTileM * kStepK * bytes, stageB = kStepK * kTileN * bytes;
  int64_t tileBytes = kTileM * kTileN * 4; // the accumulators, f32
  int64_t shared = std::max(kStages * (stageA + stageB), tileBytes) + kSwizzleAlign;
  Value one = e.idx(1);
  Value sharedBytes = arith::ConstantIntOp::create(b, loc, shared, 32);
  auto launch = buildKernelLaunch(b, loc, name.getValue(),
                                  {tilesOf(b, loc, N, kTileN), tilesOf(b, loc, M, kTileM), one,
                                   e.idx(kThreads), one, one});
  launch.getDynamicSharedMemorySizeMutable().assign(sharedBytes);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value descA = fromAddress(pointerA, mapA), descB = fromAddress(pointerB, mapB);
  auto workgroup = ::mlir::gpu::AddressSpaceAttr::get(ctx, ::mlir::gpu::AddressSpace::Workgroup);
  Value tid = launch.getThreadIds().x;
  Value first = e.cmp(arith::CmpIPredicate::eq, tid, e.idx(0));
  Value m0 = e.mul(launch.getBlockIds().y, kTileM), n0 = e.mul(launch.getBlockIds().x, kTileN);

  // A stage's mbarrier, initialized by one thread (an arrival count of 1:
  // thread 0's expect_tx), seen initialized by all after the barrier.
  auto barrierType = nvgpu::MBarrierGroupType::get(ctx, workgroup, kStages);
  Value barriers = nvgpu::MBarrierCreateOp::create(b, loc, barrierType);
  {
    auto init = scf::IfOp::create(b, loc, first, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&init.getThenRegion().front());
    for (int64_t s = 0; s < kStages; ++s)
      nvgpu::MBarrierInitOp::create(b, loc, barriers, one, e.idx(s), Value());
    nvgpu::TmaPrefetchOp::create(b, loc, descA, Value());
    nvgpu::TmaPrefetchOp::create(b, loc, descB, Value());
  }
  ::mlir::gpu::BarrierOp::create(b, loc);

  // The stages, from the first 1024-byte boundary of dynamic shared memory.
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                   MemRefLayoutAttrInterface(), workgroup);
  Value raw = ::mlir::gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, raw);
  Value base = arith::RemUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, e.idx(kSwizzleAlign),
                                    arith::RemUIOp::create(b, loc, address, e.idx(kSwizzleAlign))),
      e.idx(kSwizzleAlign));
  auto view = [&](Value offset, ArrayRef<int64_t> shape, Type type) {
    auto memref = MemRefType::get(shape, type, MemRefLayoutAttrInterface(), workgroup);
    return memref::ViewOp::create(b, loc, memref, raw, offset, ValueRange{}).getResult();
  };
  auto offsetA = [&](Value slot) { return e.add(base, e.mul(slot, stageA)); };
  auto offsetB = [&](Value slot) {
    return e.add(e.add(base, kStages * stageA), e.mul(slot, stageB));
  };

  Value steps = arith::CeilDivUIOp::create(b, loc, K, e.idx(kStepK));
  // Step `step`'s tiles into stage `slot`, issued by thread 0 where `when`.
  auto load = [&](Value step, Value slot, Value when) {
    auto ifOp = scf::IfOp::create(b, loc, when, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value k0 = e.mul(step, kStepK);
    // The TMA counts every byte of a box, those past the edges included.
    nvgpu::MBarrierArriveExpectTxOp::create(b, loc, barriers, e.idx(stageA + stageB), slot,
                                            Value());
    // Coordinates innermost first: (k, m) of A, (n, k) of B.
    nvgpu::TmaAsyncLoadOp::create(b, loc, view(offsetA(slot), {kTileM, kStepK}, element),
                                  barriers, descA, ValueRange{k0, m0}, slot, Value(), Value());
    for (int64_t h = 0; h < kTileN / kHalfN; ++h)
      nvgpu::TmaAsyncLoadOp::create(
          b, loc, view(e.add(offsetB(slot), h * kStepK * kHalfN * bytes), {kStepK, kHalfN}, element),
          barriers, descB, ValueRange{e.add(n0, h * kHalfN), k0}, slot, Value(), Value());
  };
  for (int64_t s = 0; s + 1 < kStages; ++s)
    load(e.idx(s), e.idx(s),
         arith::AndIOp::create(b, loc, first, e.cmp(arith::CmpIPredicate::ult, e.idx(s), steps)));

  auto accType = nvgpu::WarpgroupAccumulatorType::get(
      ctx, VectorType::get({kTileM, kTileN}, b.getF32Type()));
  Value init = nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, loc, accType);
  auto kLoop = scf::ForOp::create(b, loc, e.idx(0), steps, one, ValueRange{init});
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value step = kLoop.getInductionVar();
    Value slot = arith::RemUIOp::create(b, loc, step, e.idx(kStages));
    // The stage's phase flips each time its copies land: step / stages
    // times before this one.
    Value round = arith::DivUIOp::create(b, loc, step, e.idx(kStages));
    Value parity = arith::IndexCastUIOp::create(b, loc, b.getI1Type(),
                                                arith::RemUIOp::create(b, loc, round, e.idx(2)));
    nvgpu::MBarrierTryWaitParityOp::create(b, loc, barriers, parity, e.idx(10000000), slot);
    auto descType = [&](ArrayRef<int64_t> shape) {
      return nvgpu::WarpgroupMatrixDescriptorType::get(
          ctx, MemRefType::get(shape, element, MemRefLayoutAttrInterface(),
                               IntegerAttr::get(IntegerType::get(ctx, 64), 3)));
    };
    Value dA = nvgpu::WarpgroupGenerateDescriptorOp::create(
        b, loc, descType({kTileM, kStepK}), view(offsetA(slot), {kTileM, kStepK}, element), descA);
    Value dB = nvgpu::WarpgroupGenerateDescriptorOp::create(
        b, loc, descType({kStepK, kTileN}), view(offsetB(slot), {kStepK, kTileN}, element), descB);
    // B [k][n] is MN-major: wgmma's transposed B. The lowering commits the
    // group and waits for all but it: the step before is done.
    Value acc = nvgpu::WarpgroupMmaOp::create(b, loc, accType, dA, dB, IntegerAttr(),
                                              UnitAttr(), b.getUnitAttr(),
                                              kLoop.getRegionIterArgs()[0]);
    // Every warp's multiply of the step before is done: its stage is free.
    ::mlir::gpu::BarrierOp::create(b, loc);
    Value next = e.add(step, kStages - 1);
    load(next, arith::RemUIOp::create(b, loc, next, e.idx(kStages)),
         arith::AndIOp::create(b, loc, first, e.cmp(arith::CmpIPredicate::ult, next, steps)));
    scf::YieldOp::create(b, loc, acc);
  }
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  ::mlir::gpu::BarrierOp::create(b, loc); // the stages are free for the tile

  // The tile through shared memory, then a row at a time, 128 consecutive
  // columns: coalesced stores of every result.
  Value tile = view(base, {kTileM, kTileN}, b.getF32Type());
  nvgpu::WarpgroupMmaStoreOp::create(b, loc, kLoop.getResult(0), tile);
  ::mlir::gpu::BarrierOp::create(b, loc);
  Access x{parts, {}, e.idx(0)};
  Value col = e.add(n0, tid);
  Value colInside = e.cmp(arith::CmpIPredicate::ult, col, N);
  auto rows = scf::ForOp::create(b, loc, e.idx(0), e.idx(kTileM), one);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(rows.getBody());
    Value r = rows.getInductionVar();
    Value row = e.add(m0, r);
    Value inside =
        arith::AndIOp::create(b, loc, colInside, e.cmp(arith::CmpIPredicate::ult, row, M));
    auto store = scf::IfOp::create(b, loc, inside, false);
    b.setInsertionPointToStart(&store.getThenRegion().front());
    Value v = memref::LoadOp::create(b, loc, tile, ValueRange{r, tid});
    x.finish(b, loc, v, row, col);
  }
  finishLaunch(b, loc, launch);
}

} // namespace kfuse::gpu::matmul
