//===- MatmulSimt.cpp - the register-tiled matmul on CUDA cores -----------===//
//
// The classic SIMT GEMM (CUTLASS's SIMT kernels, Triton's f32 dot without
// tensor cores), written directly because upstream's linalg tiling and
// promotion do not keep kfuse's fused epilogue in the same launch:
//   block (bx, by, bz): C[m0 .. m0+64, n0 .. n0+64] of batch bz, 16x16
//   threads; for k0 in K by 16:
//     stage A[m0.., k0..] in As[k][m / 4] (A transposed in shared memory,
//     4 neighbours along m a vector) and B[k0.., n0..] in Bs[k][n / 4],
//     one vector a thread each, the global reads coalesced for either
//     layout of each operand, zero past the edges (any M, N, K);
//     barrier; 16 steps of k unrolled: thread (tx, ty) loads As[k][ty]
//     and Bs[k][tx] (two 128-bit loads for f32) and does the 16
//     multiply-adds of its 4x4 outer product (8 per shared-memory load,
//     against 1/2 in the 16x16 reference); barrier;
//   then the epilogue on each of the 16 accumulators in registers and one
//   masked store of each result (the matmul's own result only when
//   something after the kernel reads it).
// Any element type of 8 bits or more (f32, f64, integers; f16/bf16 widened
// by the matmul's body); i1 takes the reference.
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/matmul/MatmulParts.h"

#include "passes/launch/MappingUtils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace kfuse::gpu::matmul {

namespace {

constexpr int64_t kBlockTile = 64; // BM = BN
constexpr int64_t kStepK = 16;     // BK
constexpr int64_t kThreads = 16;   // per side: 256 threads
constexpr int64_t kMicro = kBlockTile / kThreads; // 4x4 outputs a thread
constexpr int64_t kGroups = kBlockTile / kMicro; // 16 vectors a row of a tile
// One vector of padding a row: a thread's staging store and its
// neighbour's (k and k + 1) are 17 vectors apart, so the 8 threads of a
// 128-bit store phase hit different banks.
constexpr int64_t kPad = 1;
constexpr int64_t kUnroll = 16; // steps of k a loop iteration
static_assert(kGroups == kStepK && kThreads * kThreads == kGroups * kStepK,
              "a tile is staged as one vector a thread");

Type elementOf(Value v) { return cast<MemRefType>(v.getType()).getElementType(); }

} // namespace

bool simtFits(const Parts &parts) {
  return llvm::all_of(ArrayRef<Value>{parts.a(), parts.b()}, [](Value v) {
    Type t = elementOf(v);
    return t.isIntOrFloat() && t.getIntOrFloatBitWidth() >= 8;
  });
}

void mapSimt(OpBuilder &b, StringAttr name, Parts &parts) {
  OpBuilder::InsertionGuard guard(b);
  Location loc = parts.matmul.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> sizes = loopSizes(b, loc, parts);
  Value M = sizes[parts.batch], N = sizes[parts.batch + 1];
  SmallVector<Value> ks = stepKs(b, loc, parts); // a chain's matmuls have their own K
  auto workgroup = ::mlir::gpu::AddressSpaceAttr::get(ctx, ::mlir::gpu::AddressSpace::Workgroup);
  // [k][group of 4 along m (n)] as vectors: the vector type makes the
  // shared buffer 16-byte aligned (for f32; its size in general), which the
  // 128-bit loads need (a workgroup attribution is aligned to its element
  // type: gpu.launch has no alignment attribute that outlining keeps).
  SmallVector<Type> shared;
  for (Value operand : {parts.a(), parts.b()})
    shared.push_back(MemRefType::get({kStepK, kGroups + kPad},
                                     VectorType::get({kMicro}, elementOf(operand)),
                                     MemRefLayoutAttrInterface(), workgroup));
  auto idx = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  Value one = idx(1), threads = idx(kThreads);
  auto launch = buildKernelLaunch(b, loc, name.getValue(),
                                  {tilesOf(b, loc, N, kBlockTile), tilesOf(b, loc, M, kBlockTile),
                                   batchGrid(b, loc, sizes, parts), threads, threads, one},
                                  shared);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value zero = idx(0);
  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
  auto add = [&](OpBuilder &nb, Value x, Value y) {
    return arith::AddIOp::create(nb, loc, x, y).getResult();
  };
  auto mul = [&](OpBuilder &nb, Value x, int64_t c) {
    return arith::MulIOp::create(nb, loc, x, arith::ConstantIndexOp::create(nb, loc, c))
        .getResult();
  };
  Value m0 = mul(b, launch.getBlockIds().y, kBlockTile);
  Value n0 = mul(b, launch.getBlockIds().x, kBlockTile);
  Value tid = add(b, mul(b, ty, kThreads), tx);
  Value highTid = arith::DivUIOp::create(b, loc, tid, idx(kStepK));
  Value lowTid = arith::RemUIOp::create(b, loc, tid, idx(kStepK));
  Value aTile = launch.getWorkgroupAttributions()[0];
  Value bTile = launch.getWorkgroupAttributions()[1];
  Value aZero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elementOf(parts.a())));
  Value bZero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elementOf(parts.b())));
  Value init = initialValue(b, loc, parts);
  Value rowOff = mul(b, ty, kMicro), colOff = mul(b, tx, kMicro);

  forEachBatch(b, loc, launch, sizes, parts, [&](ArrayRef<Value> batchIvs) {
    // One accumulator tile over every step's K (one step but for a chain).
    SmallVector<Value> accumulators(kMicro * kMicro, init);
    for (auto [s, p] : llvm::enumerate(parts.steps())) {
      const Parts &part = *p;
      Value K = ks[s];
      Access x{part, SmallVector<Value>(batchIvs), zero};
      Value steps = arith::CeilDivUIOp::create(b, loc, K, idx(kStepK));
      auto kLoop = scf::ForOp::create(
          b, loc, zero, steps, one, accumulators,
          [&](OpBuilder &nb, Location l, Value step, ValueRange acc) {
            Value k0 = mul(nb, step, kStepK);
            // Each thread stages 4 neighbours along m of A (along n of B) at
            // one k as one vector: (k, group) = (tid % 16, tid / 16) when the
            // operand is stored with k last (16 threads read 16 consecutive
            // k: coalesced), (tid / 16, tid % 16) when it is stored with m
            // (n) last (a thread's 4 elements are neighbours in memory).
            auto stage = [&](unsigned o, Value tile, Value base, Value rows, Value zeroValue) {
              bool kLast = (o == 0) != part.transposed[o];
              Value k = kLast ? lowTid : highTid, group = kLast ? highTid : lowTid;
              Value kk = add(nb, k0, k);
              Value first = add(nb, base, mul(nb, group, kMicro));
              SmallVector<Value> values;
              for (int64_t j = 0; j < kMicro; ++j) {
                Value i = add(nb, first, arith::ConstantIndexOp::create(nb, l, j));
                values.push_back(o == 0 ? x.loadA(nb, l, i, kk, rows, K, zeroValue)
                                        : x.loadB(nb, l, kk, i, K, rows, zeroValue));
              }
              Value vec = vector::FromElementsOp::create(
                  nb, l, VectorType::get({kMicro}, zeroValue.getType()), values);
              memref::StoreOp::create(nb, l, vec, tile, ValueRange{k, group});
            };
            stage(0, aTile, m0, M, aZero);
            stage(1, bTile, n0, N, bZero);
            ::mlir::gpu::BarrierOp::create(nb, l);
            // 16 steps of k, kUnroll at a time: per step two vector loads
            // from shared memory and the 4x4 outer product. (Fully unrolled,
            // ptxas hoists the loads of later steps and, on sm_80, spills
            // to keep 64 registers.)
            auto steps = scf::ForOp::create(
                nb, l, arith::ConstantIndexOp::create(nb, l, 0),
                arith::ConstantIndexOp::create(nb, l, kStepK),
                arith::ConstantIndexOp::create(nb, l, kUnroll), acc,
                [&](OpBuilder &ib, Location il, Value kBase, ValueRange carried) {
                  SmallVector<Value> sum(carried.begin(), carried.end());
                  for (int64_t u = 0; u < kUnroll; ++u) {
                    Value k = arith::AddIOp::create(
                        ib, il, kBase, arith::ConstantIndexOp::create(ib, il, u));
                    Value av = memref::LoadOp::create(ib, il, aTile, ValueRange{k, ty});
                    Value bvec = memref::LoadOp::create(ib, il, bTile, ValueRange{k, tx});
                    SmallVector<Value> as, bs;
                    for (int64_t i = 0; i < kMicro; ++i) {
                      as.push_back(vector::ExtractOp::create(ib, il, av, i));
                      bs.push_back(vector::ExtractOp::create(ib, il, bvec, i));
                    }
                    for (int64_t i = 0; i < kMicro; ++i)
                      for (int64_t j = 0; j < kMicro; ++j)
                        sum[i * kMicro + j] =
                            multiplyAdd(ib, part, as[i], bs[j], sum[i * kMicro + j]);
                  }
                  scf::YieldOp::create(ib, il, sum);
                });
            SmallVector<Value> sum(steps.getResults());
            // The tiles are read by every thread before the next step writes.
            ::mlir::gpu::BarrierOp::create(nb, l);
            scf::YieldOp::create(nb, l, sum);
          });
      accumulators.assign(kLoop.getResults().begin(), kLoop.getResults().end());
    }
    Access x{parts, SmallVector<Value>(batchIvs), zero};
    // Row by row: one test of the row, then one of each column.
    for (int64_t i = 0; i < kMicro; ++i) {
      Value row = add(b, m0, add(b, rowOff, idx(i)));
      auto rowInside = scf::IfOp::create(
          b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, M), false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&rowInside.getThenRegion().front());
      for (int64_t j = 0; j < kMicro; ++j) {
        Value col = add(b, n0, add(b, colOff, idx(j)));
        auto guard = scf::IfOp::create(
            b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col, N), false);
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPointToStart(&guard.getThenRegion().front());
        x.finish(b, loc, accumulators[i * kMicro + j], row, col);
      }
    }
  });
  finishLaunch(b, loc, launch);
}

} // namespace kfuse::gpu::matmul
