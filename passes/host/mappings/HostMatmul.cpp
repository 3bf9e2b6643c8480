//===- HostMatmul.cpp - matmul kernels for a CPU core per block -----------===//
//
// The BLIS/GotoBLAS scheme, written as one gpu.launch whose blocks are
// tiles of C (so that the runtime spreads them over the cores, and the
// kernel keeps its name, launch and report):
//   block (bx, by): C[m0 .. m0+bm, n0 .. n0+bn], block dims (1, 1, 1)
//   (bm x bn at most kBM x kNC, smaller where M x N would give the
//   threads too few blocks: HostMatmulPanels.cpp);
//   for k0 in K by kKC:                 (panels of K sized for the caches)
//     pack B[k0 .., n0 ..] into Bp      (NR-wide slivers, contiguous)
//     for each kMC rows of the block:
//       pack A[rows, k0 ..] into Ap     (rows 17 cache lines apart)
//       for each NR-wide sliver of Bp: (kKC x NR x 4 = 16 or 32 KiB: L1)
//         for each kMR rows of Ap:      (from L2)
//           kMR x NR accumulators (12 vectors, scf.for iter_args)
//           += A[i, k] (broadcast) * Bp[k, 0..NR] (2 loads): vector.fma
//           last panel: the epilogue on the accumulators, then the
//           stores; else kept in a tile buffer Ct for the next panel.
// A batched matmul (kf.matmul of rank > 2: a linalg.generic over loops
// (batch..., m, n, k)) is the same kernel once per batch index: grid z runs
// over the batch indices, and each block reads A and B through 2-D
// subviews at its index (a broadcast batch dim at 0), while C and the
// epilogue are indexed (batch..., row, col). Before, batched matmuls took
// the simple mapping: 1-5 GFLOP/s against 125-145 for 2-D (the attention
// matmuls were 53% of a GPT-2 layer's time on the CPU).
// Rows past M read row M-1 instead (their results are never stored), and
// columns past N are zeros in Bp, so the micro-kernel has no edge case;
// the stores are masked at N. Packing B makes its NR-wide rows
// contiguous vectors whatever B's layout (a transposed B, [n, k], is
// packed element by element). A read transposed in place ([k, m]) is not
// packed: its kMR elements of a step of k are neighbours already.
// Upstream's linalg tiling + vectorization (or the transform dialect's
// matmul recipes) build the same loops, but as separate tiled ops whose
// accumulators live in memory, without kfuse's fused epilogue applied in
// registers; the loops are written here directly.
//
// f16 and bf16 operands are widened to f32 as they are packed (or, for A
// read in place, as they are read); other dtypes (f64, integers) take the
// simple mapping of kfuse::gpu::mapMatmulKernel (one element at a time,
// correct, slow).
//
//===----------------------------------------------------------------------===//
#include "passes/host/mappings/HostMappings.h"
#include "passes/host/mappings/HostMatmulEpilogue.h"

#include "passes/launch/MappingUtils.h"
#include "passes/gpu/matmul/MatmulKernels.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace kfuse::host::matmul;

namespace {

// Register tile: 6 rows x NR columns, 12 vector registers for the
// accumulators, 2 for the B row, 1 for the broadcast A element: 6 x 16
// f32 in AVX2's ymm (16 registers), 6 x 32 in AVX-512's zmm (32), twice
// the products for each broadcast and load, and for each tile's epilogue
// and stores (BERT's 512 x 64 x 64 Linears: 46.6 -> 39.7 us on one core of
// a Zen 4, where MKL takes 46; docs/BENCHMARKS.md).
constexpr int64_t kMR = 6;
// Cache blocks: a Bp sliver (kKC x NR f32 = 16 or 32 KiB) stays in L1 while
// kMC rows of A (kMC x kKC x 4 = 72 KiB) and the packed panel Bp
// (kKC x kNC x 4 = 128 KiB) stay in the 512 KiB L2.
constexpr int64_t kKC = 256, kMC = 12 * kMR, kNC = 128;
// A block's rows: a packed panel of B serves 4 x kMC rows of A (B is
// packed again by every block: at kMC rows a block, packing B took a
// quarter of the time at 1024 x 1024). M = 256 is one block down, and
// N / 128 across: 8 blocks for the MLP's first matmul, 2 for its second
// (N = 256), one per core.
constexpr int64_t kBM = 4 * kMC;
// The fewest rows a block is cut to where the launch would have fewer
// than kMinBlocks blocks (HostMatmulPanels.cpp): 4 register tiles, so
// that each element of B a block packs still feeds 24 products.
constexpr int64_t kMinBlockRows = 4 * kMR;

struct Emit {
  OpBuilder &b;
  Location loc;
  /// f32 lanes of a vector register (lanesOf): the register tile's rows
  /// are 2 vectors, nr() columns, as are B's packed slivers.
  int64_t lanes;
  int64_t nr() const { return 2 * lanes; }
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value min(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value ceilDiv(Value x, Value y) { return arith::CeilDivUIOp::create(b, loc, x, y); }
  Value ult(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  Value ule(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, x, y);
  }
  /// `v` (a scalar or vector of f16, bf16 or f32) as f32.
  Value f32(Value v) {
    Type f32 = b.getF32Type();
    if (getElementTypeOrSelf(v.getType()) == f32)
      return v;
    auto vec = dyn_cast<VectorType>(v.getType());
    return arith::ExtFOp::create(b, loc, vec ? Type(vec.clone(f32)) : f32, v);
  }
  /// `body(i)` for i in [0, n), at the builder's place, which stays after
  /// the loop.
  void loop(Value n, function_ref<void(Value)> body) {
    auto f = scf::ForOp::create(b, loc, idx(0), n, idx(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(f.getBody());
    body(f.getInductionVar());
  }
  /// `then()` / `otherwise()` under `cond`, with no results.
  void branch(Value cond, function_ref<void()> then, function_ref<void()> otherwise = {}) {
    auto op = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/bool(otherwise));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&op.getThenRegion().front());
    then();
    if (otherwise) {
      b.setInsertionPointToStart(&op.getElseRegion().front());
      otherwise();
    }
  }
};

struct Tile {
  const Kernel &k; // the matmul whose panels are packed (a chain's step)
  const Kernel &out; // the kernel's own: its result and epilogue
  Value M, N, K;
  /// The block's batch indices, and A and B as 2-D views at them (A and
  /// B themselves for a 2-D matmul).
  SmallVector<Value> batch;
  Value a, b;
};

/// Bp[s, kk, 0 .. NR] = B[k0 + kk, col + 0 .. NR] for the `slivers`
/// slivers of the block (col = n0 + s * NR) and kk < kcLen, zero past N.
void packB(Emit &x, const Tile &t, Value Bp, Value n0, Value nLen, Value slivers, Value k0,
           Value kcLen) {
  Value B = t.b;
  if (!t.k.transposed[1] && cast<MemRefType>(B.getType()).isLastDimUnitStride()) {
    // B's rows are contiguous: row by row (a sliver at a time, B's rows
    // are 4 KiB apart for N = 1024: a TLB miss and no prefetch each), the
    // whole slivers as vector copies, the last one masked at N.
    Value whole = arith::DivUIOp::create(x.b, x.loc, nLen, x.idx(x.nr()));
    Value edge = x.mul(whole, x.idx(x.nr()));
    Value masks[2];
    for (int h = 0; h < 2; ++h)
      masks[h] = vector::CreateMaskOp::create(
          x.b, x.loc, VectorType::get({x.lanes}, x.b.getI1Type()),
          ValueRange{x.sub(nLen, x.add(edge, x.idx(h * x.lanes)))});
    x.loop(kcLen, [&](Value kk) {
      Value kIdx = x.add(k0, kk);
      auto copy = [&](Value s, Value *mask) {
        Value col = x.add(n0, x.mul(s, x.idx(x.nr())));
        for (int h = 0; h < 2; ++h) {
          Value v = loadLanes(x.b, x.loc, B, {kIdx, x.add(col, x.idx(h * x.lanes))},
                              mask ? mask[h] : Value(), x.lanes);
          storeLanes(x.b, x.loc, x.f32(v), Bp, {s, kk, x.idx(h * x.lanes)}, Value());
        }
      };
      x.loop(whole, [&](Value s) { copy(s, nullptr); });
      x.branch(x.ult(whole, slivers), [&] { copy(whole, masks); });
    });
    return;
  }
  Value last = x.sub(t.N, x.idx(1));
  if (t.k.transposed[1] && packsTransposedInRegisters(B)) {
    // B stored [n, k] with k contiguous: 8 x 8 squares through registers.
    x.loop(slivers, [&](Value s) {
      packTransposedSliver(x.b, x.loc, B, Bp, s, x.add(n0, x.mul(s, x.idx(x.nr()))), last, k0,
                           kcLen, x.nr());
    });
    return;
  }
  // B strided otherwise: element by element, k innermost (the contiguous
  // dim of a transposed B); columns past N repeat column N - 1, whose
  // results are never stored.
  x.loop(slivers, [&](Value s) {
    Value col = x.add(n0, x.mul(s, x.idx(x.nr())));
    x.loop(x.idx(x.nr()), [&](Value c) {
      Value n = x.min(x.add(col, c), last);
      x.loop(kcLen, [&](Value kk) {
        Value kIdx = x.add(k0, kk);
        SmallVector<Value> at = t.k.transposed[1] ? SmallVector<Value>{n, kIdx}
                                                   : SmallVector<Value>{kIdx, n};
        Value v = memref::LoadOp::create(x.b, x.loc, B, at);
        memref::StoreOp::create(x.b, x.loc, x.f32(v), Bp, ValueRange{s, kk, c});
      });
    });
  });
}

/// Ap[i, 0 .. kcLen] = A[m0 + i, k0 ..] for the block's mLen rows: A's
/// rows copied as vectors, a scalar tail. Only for A stored [m, k] with
/// contiguous rows whose stride puts more than 3 of a tile's rows in one L1
/// set (rowsReadInPlace): read in place, its kMR rows sit a row of A apart,
/// 4 KiB for K = 1024, which puts all of them in one set of the 8-way L1
/// (on a Zen 4 the micro-kernel then ran at a third of its speed); Ap's
/// rows are kKC + 16 floats apart (17 cache lines), each in its own set.
void packA(Emit &x, const Tile &t, Value Ap, Value m0, Value mLen, Value k0, Value kcLen) {
  auto type = VectorType::get({x.lanes}, cast<MemRefType>(t.a.getType()).getElementType());
  Value lanes = x.idx(x.lanes);
  Value whole = x.mul(arith::DivUIOp::create(x.b, x.loc, kcLen, lanes), lanes);
  x.loop(mLen, [&](Value i) {
    Value row = x.add(m0, i);
    auto vectors = scf::ForOp::create(x.b, x.loc, x.idx(0), whole, lanes);
    {
      OpBuilder::InsertionGuard g(x.b);
      x.b.setInsertionPointToStart(vectors.getBody());
      Value kk = vectors.getInductionVar();
      Value v = vector::LoadOp::create(x.b, x.loc, type, t.a, ValueRange{row, x.add(k0, kk)});
      vector::StoreOp::create(x.b, x.loc, x.f32(v), Ap, ValueRange{i, kk});
    }
    auto tail = scf::ForOp::create(x.b, x.loc, whole, kcLen, x.idx(1));
    OpBuilder::InsertionGuard g(x.b);
    x.b.setInsertionPointToStart(tail.getBody());
    Value kk = tail.getInductionVar();
    Value v = memref::LoadOp::create(x.b, x.loc, t.a, ValueRange{row, x.add(k0, kk)});
    memref::StoreOp::create(x.b, x.loc, x.f32(v), Ap, ValueRange{i, kk});
  });
}

/// Where the micro-kernel reads A: packed (Ap[i, kk], i from the block's
/// first row) or in place (A[m, k0 + kk], or A[k0 + kk, m] transposed).
struct ASource {
  Value buffer;
  bool transposed;
  Value first, last; // the rows it holds: [first, last]
  Value kOffset;
};

/// The accumulators of rows (row0 .. row0 + kMR) x columns of Bp sliver
/// `s`, from `init` over kk < kcLen: 2 per row, a vector.fma each.
SmallVector<Value> microKernel(Emit &x, const ASource &a, Value Bp, Value s, Value row0,
                               Value kcLen, ValueRange init) {
  auto f32xN = VectorType::get({x.lanes}, x.b.getF32Type());
  // Rows past M read the last row (in bounds; never stored).
  SmallVector<Value> rows;
  for (int64_t r = 0; r < kMR; ++r)
    rows.push_back(x.sub(x.min(x.add(row0, x.idx(r)), a.last), a.first));
  Value lanes[2] = {x.idx(0), x.idx(x.lanes)};
  auto loop = scf::ForOp::create(
      x.b, x.loc, x.idx(0), kcLen, x.idx(1), init,
      [&](OpBuilder &nb, Location l, Value kk, ValueRange acc) {
        Value kIdx = arith::AddIOp::create(nb, l, a.kOffset, kk);
        Value bv[2];
        for (int h = 0; h < 2; ++h)
          bv[h] = vector::LoadOp::create(nb, l, f32xN, Bp, ValueRange{s, kk, lanes[h]});
        SmallVector<Value> next;
        for (int64_t r = 0; r < kMR; ++r) {
          SmallVector<Value> at = a.transposed ? SmallVector<Value>{kIdx, rows[r]}
                                               : SmallVector<Value>{rows[r], kIdx};
          Value av = memref::LoadOp::create(nb, l, a.buffer, at);
          Value avv = vector::BroadcastOp::create(nb, l, f32xN, Emit{nb, l, x.lanes}.f32(av));
          for (int h = 0; h < 2; ++h)
            next.push_back(vector::FMAOp::create(nb, l, avv, bv[h], acc[2 * r + h]));
        }
        scf::YieldOp::create(nb, l, next);
      });
  return SmallVector<Value>(loop.getResults());
}

/// The epilogue and stores of the accumulators `acc` of rows row0 ..
/// row0 + kMR, columns col .. col + NR: whole vectors when the columns are
/// all inside N, masked ones otherwise; rows past M are skipped.
void finishTile(Emit &x, const Tile &t, ValueRange acc, Value row0, Value col) {
  auto rowsAt = [&](bool edge) {
    auto maskOf = [&](int64_t lanes, Value from) -> Value {
      if (!edge)
        return Value();
      return vector::CreateMaskOp::create(x.b, x.loc, VectorType::get({lanes}, x.b.getI1Type()),
                                          ValueRange{x.sub(t.N, from)});
    };
    // A vector epilogue runs on a whole row of the tile: with ymm registers
    // its two vectors as one of 16 lanes, which LLVM splits into registers
    // op by op, so that the two chains interleave (an erf GELU is a chain
    // of ~70 dependent ops a vector: one vector at a time left the core
    // waiting on latency, BERT's Linear + GELU 206 -> 156 us on one core);
    // with zmm registers each vector in turn (one of 32 lanes took ViT's
    // GELU epilogue 4% longer).
    bool joined = x.nr() <= 16;
    Value rowMask, masks[2];
    if (joined)
      rowMask = maskOf(x.nr(), col);
    for (int h = 0; h < 2; ++h)
      masks[h] = maskOf(x.lanes, x.add(col, x.idx(h * x.lanes)));
    for (int64_t r = 0; r < kMR; ++r) {
      Value row = x.add(row0, x.idx(r));
      x.branch(x.ult(row, t.M), [&] {
        if (t.out.vectorEpilogue && joined) {
          Value segment =
              vector::ShuffleOp::create(x.b, x.loc, acc[2 * r], acc[2 * r + 1],
                                        llvm::to_vector(llvm::seq<int64_t>(0, x.nr())));
          finishVector(x.b, x.loc, t.out, t.batch, segment, row, col, rowMask);
          return;
        }
        if (t.out.vectorEpilogue) {
          for (int h = 0; h < 2; ++h)
            finishVector(x.b, x.loc, t.out, t.batch, acc[2 * r + h], row,
                         x.add(col, x.idx(h * x.lanes)), masks[h]);
          return;
        }
        for (int h = 0; h < 2; ++h) {
          SmallVector<Value> at(t.batch);
          at.append({row, x.add(col, x.idx(h * x.lanes))});
          storeLanes(x.b, x.loc, acc[2 * r + h], t.out.c(), at, masks[h]);
        }
        // The epilogue element by element, on the row just stored (in L1).
        Value cols = x.min(x.idx(x.nr()), x.sub(t.N, col));
        x.loop(cols, [&](Value j) { finishScalar(x.b, x.loc, t.out, t.batch, row, x.add(col, j)); });
      });
    }
  };
  x.branch(x.ule(x.add(col, x.idx(x.nr())), t.N), [&] { rowsAt(false); },
           [&] { rowsAt(true); });
}


/// What the loops over a block's panels and register tiles share.
struct Blocked {
  Value Bp, Ap, Ct; // Ap null: A read in place; Ct null: one panel of K
  Value fill;       // the fill, as a vector
};

/// One register tile: rows row0 .. row0 + kMR (ctRow in the block's Ct),
/// columns of Bp sliver `s` (col in C), over one panel of K: the first
/// panel (of the first step) starts from the fill, the last ends with the
/// epilogue (i1 values; both true where there is no Ct).
void registerTile(Emit &x, const Tile &t, const Blocked &blk, const ASource &a, Value first,
                  Value last, Value s, Value col, Value row0, Value ctRow, Value kcLen) {
  OpBuilder &b = x.b;
  Location loc = x.loc;
  Value ctCol = x.mul(s, x.idx(x.nr()));
  auto ctAt = [&](int64_t i) -> SmallVector<Value> {
    return {x.add(ctRow, x.idx(i / 2)), x.add(ctCol, x.idx((i % 2) * x.lanes))};
  };
  SmallVector<Value> init(2 * kMR, blk.fill);
  if (blk.Ct) {
    // The first panel starts from the fill, the others from Ct.
    SmallVector<Type> types(2 * kMR, blk.fill.getType());
    auto start = scf::IfOp::create(b, loc, types, first, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&start.getThenRegion().front());
    scf::YieldOp::create(b, loc, init);
    b.setInsertionPointToStart(&start.getElseRegion().front());
    SmallVector<Value> loaded;
    for (int64_t i = 0; i < 2 * kMR; ++i)
      loaded.push_back(loadLanes(b, loc, blk.Ct, ctAt(i), Value(), x.lanes));
    scf::YieldOp::create(b, loc, loaded);
    init = SmallVector<Value>(start.getResults());
  }
  SmallVector<Value> acc = microKernel(x, a, blk.Bp, s, row0, kcLen, init);
  if (!blk.Ct)
    return finishTile(x, t, acc, row0, col);
  Value more = arith::XOrIOp::create(b, loc, last, arith::ConstantIntOp::create(b, loc, 1, 1));
  x.branch(more,
           [&] {
             for (int64_t i = 0; i < 2 * kMR; ++i)
               storeLanes(b, loc, acc[i], blk.Ct, ctAt(i), Value());
           },
           [&] { finishTile(x, t, acc, row0, col); });
}

MemRefType buffer(OpBuilder &b, ArrayRef<int64_t> shape) {
  return MemRefType::get(shape, b.getF32Type());
}

} // namespace

void kfuse::host::mapMatmulKernel(OpBuilder &b, StringAttr name,
                                  ArrayRef<linalg::LinalgOp> ops, unsigned vectorBits) {
  Kernel k;
  if (failed(analyze(ops, k)))
    return kfuse::gpu::mapMatmulKernel(b, name, ops, launch::HostLaunchTarget(),
                                       kf::KernelVariant::Reference);
  OpBuilder::InsertionGuard guard(b);
  Location loc = ops.back()->getLoc();
  Emit x{b, loc, lanesOf(vectorBits)};
  SmallVector<Value> sizes; // (batch..., M, N, K)
  for (Range r : k.matmul.createLoopRanges(b, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
  ArrayRef<Value> batchSizes = ArrayRef<Value>(sizes).take_front(k.batch);
  Tile t{k, k, sizes[k.batch], sizes[k.batch + 1], sizes[k.batch + 2], {}, k.a, k.b};
  SmallVector<Value> ks; // each step's K (a chain's matmuls have their own)
  for (const Kernel *step : k.steps())
    ks.push_back(step == &k ? t.K
                            : getValueOrCreateConstantIndexOp(
                                  b, loc, linalg::LinalgOp(step->matmul)
                                              .createLoopRanges(b, loc)
                                              .back()
                                              .size));
  Value one = x.idx(1);
  // A batched matmul: one block per tile of C and batch index (grid z).
  // Folded as built (static batches give constants: see chooseBlockShape).
  Value batches = one;
  for (Value s : batchSizes)
    batches = b.createOrFold<arith::MulIOp>(loc, batches, s);
  Value gridZ = b.createOrFold<arith::MaxUIOp>(loc, batches, one);
  BlockShape shape = chooseBlockShape(b, loc, t.M, t.N, gridZ,
                                      BlockLimits{kBM, kNC, kMR, x.nr(), kMinBlockRows});
  auto launch = kfuse::gpu::buildKernelLaunch(
      b, loc, name.getValue(),
      kfuse::gpu::LaunchGeometry{shape.gridX, shape.gridY, gridZ, one, one, one});
  b.setInsertionPointToStart(&launch.getBody().front());
  Value flat = launch.getBlockIds().z;
  t.batch.resize(k.batch);
  for (int64_t i = int64_t(k.batch) - 1; i >= 0; --i) {
    // A batch dim of size 0 has no blocks to compute (see `inside`); the
    // division must still not trap.
    Value size = arith::MaxUIOp::create(b, loc, batchSizes[i], one);
    t.batch[i] = arith::RemUIOp::create(b, loc, flat, size);
    flat = arith::DivUIOp::create(b, loc, flat, size);
  }
  Value m0 = x.mul(launch.getBlockIds().y, shape.rows);
  Value n0 = x.mul(launch.getBlockIds().x, shape.cols);
  // On the worker's stack (the host function runs one block on one
  // thread): no allocation per block. Bp's slivers are one row longer
  // than kKC so that they do not start in the same L1 set (16 KiB apart).
  auto stackBuffer = [&](ArrayRef<int64_t> shape) -> Value {
    auto op = memref::AllocaOp::create(b, loc, buffer(b, shape));
    op.setAlignment(64);
    return op;
  };
  Blocked blk;
  blk.Bp = stackBuffer({kNC / x.nr(), kKC + 1, x.nr()});
  // A packed unless it is read transposed in place, or its rows are read
  // in place (rowsReadInPlace: their stride keeps them in different L1
  // sets).
  auto packsA = [](const Kernel &step) {
    auto type = cast<MemRefType>(step.a.getType());
    return !step.transposed[0] && type.isLastDimUnitStride() && !rowsReadInPlace(type, kMR);
  };
  if (llvm::any_of(k.steps(), [&](const Kernel *step) { return packsA(*step); }))
    blk.Ap = stackBuffer({kMC, kKC + 16});
  // One panel of K (static K <= kKC: the MLP's first matmul) needs no
  // tile buffer between panels; a chain's steps always do.
  std::optional<int64_t> staticK = getConstantIntValue(t.K);
  if (!staticK || *staticK > kKC || !k.chain.empty())
    blk.Ct = stackBuffer({kBM, kNC});
  // The accumulators start from the first step's fill (a chain's later
  // ones are zero).
  linalg::FillOp firstFill = k.steps().front()->fill;
  auto fillValue = firstFill.getInputs()[0].getDefiningOp<arith::ConstantOp>();
  blk.fill = vector::BroadcastOp::create(b, loc, VectorType::get({x.lanes}, b.getF32Type()),
                                         arith::ConstantOp::create(b, loc, fillValue.getValue()));
  // Only M = 0, N = 0 or no batch (one block of nothing) fails this.
  Value inside = arith::AndIOp::create(b, loc, x.ult(m0, t.M), x.ult(n0, t.N));
  inside = arith::AndIOp::create(b, loc, inside, x.ult(launch.getBlockIds().z, batches));
  x.branch(inside, [&] {
    Value bmLen = x.min(shape.rows, x.sub(t.M, m0));
    Value nLen = x.min(shape.cols, x.sub(t.N, n0));
    Value nSlivers = x.ceilDiv(nLen, x.idx(x.nr()));
    SmallVector<const Kernel *> steps = k.steps();
    for (auto [si, step] : llvm::enumerate(steps)) {
      Tile st{*step, k, t.M, t.N, ks[si], t.batch, Value(), Value()};
      st.a = matrixAt(x.b, x.loc, step->a, step->maps[0], t.batch);
      st.b = matrixAt(x.b, x.loc, step->b, step->maps[1], t.batch);
      // At least one panel: K = 0 still writes the fill (and epilogue).
      Value panels =
          blk.Ct ? arith::MaxUIOp::create(b, loc, x.ceilDiv(st.K, x.idx(kKC)), one) : one;
      x.loop(panels, [&](Value p) {
        Value k0 = x.mul(p, x.idx(kKC));
        Value kcLen = x.min(x.idx(kKC), x.sub(st.K, k0));
        // The fill before the first step's first panel; the epilogue
        // after the last step's last.
        Value no = arith::ConstantIntOp::create(b, loc, 0, 1);
        Value first = si == 0 ? x.ult(p, one) : no;
        Value last = si + 1 == steps.size() ? x.ule(x.sub(panels, one), p) : no;
        packB(x, st, blk.Bp, n0, nLen, nSlivers, k0, kcLen);
        // The packed panel of B serves kMC rows of A at a time.
        x.loop(x.ceilDiv(bmLen, x.idx(kMC)), [&](Value sub) {
          Value subRow = x.mul(sub, x.idx(kMC));
          Value mb0 = x.add(m0, subRow);
          Value mLen = x.min(x.idx(kMC), x.sub(st.M, mb0));
          ASource a{st.a, step->transposed[0], x.idx(0), x.sub(st.M, one), k0};
          if (packsA(*step)) {
            packA(x, st, blk.Ap, mb0, mLen, k0, kcLen);
            a = ASource{blk.Ap, false, mb0, x.sub(x.add(mb0, mLen), one), x.idx(0)};
          }
          x.loop(nSlivers, [&](Value s) {
            Value col = x.add(n0, x.mul(s, x.idx(x.nr())));
            x.loop(x.ceilDiv(mLen, x.idx(kMR)), [&](Value ir) {
              Value r = x.mul(ir, x.idx(kMR));
              registerTile(x, st, blk, a, first, last, s, col, x.add(mb0, r), x.add(subRow, r),
                           kcLen);
            });
          });
        });
      });
    }
  });
  kfuse::gpu::finishLaunch(b, loc, launch);
}
