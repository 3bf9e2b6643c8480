//===- MatmulTensorCore.h - the tensor-core matmul's pieces -----*- C++ -*-===//
//
// Internal to the tensor-core matmul: its sizes and its emitter, shared by
// MatmulTensorCore.cpp (the launch, the staging of the tiles) and
// MatmulTensorCoreFragments.cpp (ldmatrix, mma.sync).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_GPU_MATMUL_MATMULTENSORCORE_H
#define KFUSE_PASSES_GPU_MATMUL_MATMULTENSORCORE_H

#include "dialect/Kf/KfAttrs.h"
#include "passes/gpu/matmul/MatmulParts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace kfuse::gpu::matmul::tc {

using llvm::ArrayRef;
using llvm::cast;
using llvm::SmallVector;
using llvm::SmallVectorImpl;
using mlir::Location;
using mlir::MemRefType;
using mlir::OpBuilder;
using mlir::Type;
using mlir::Value;
using mlir::VectorType;

/// The sizes that follow from the kernel's tiles (#kf.matmul_tiles) and
/// the element type (16 bits: f16, bf16; 32: f32 as TF32).
struct Sizes {
  int64_t bm, bn, bk;      // the block tile
  int64_t stages, groupM;  // cp.async stages; rows of tiles a group
  int64_t threads;         // 32 a warp, warpsM x warpsN warps
  int64_t warpsN;          // warps along N (warp w: row w / warpsN)
  int64_t warpM, warpN;    // a warp's part of the tile
  int64_t fragsM, fragsN;  // its 16x8 accumulator tiles
  int64_t chunk;           // elements of one 16-byte cp.async (and of a row's pad)
  int64_t perReg;          // elements in a 32-bit register of a fragment
  int64_t mmaK;            // K of one mma.sync: 16 (f16, bf16) or 8 (tf32)
  int64_t kLastRow;        // [mn][k] rows, padded by 16 bytes
  int64_t stageOf[2];      // elements of operand o's part of a stage (either layout)
  int64_t stageBoth;       // a stage: both operands
  int64_t copies[2];       // chunks a thread copies of operand o's tile
  Sizes(kf::MatmulTilesAttr tiles, Type element) {
    bm = tiles.getM(), bn = tiles.getN(), bk = tiles.getK();
    stages = tiles.getStages(), groupM = tiles.getGroupM();
    threads = tiles.threads(), warpsN = tiles.getWarpsN();
    warpM = tiles.warpM(), warpN = tiles.warpN();
    fragsM = warpM / 16, fragsN = warpN / 8;
    int64_t bits = element.getIntOrFloatBitWidth();
    chunk = 128 / bits;
    perReg = 32 / bits;
    mmaK = 8 * perReg;
    kLastRow = bk + chunk;
    for (unsigned o = 0; o < 2; ++o) {
      stageOf[o] = std::max(tile(o) * kLastRow, bk * mnLastRow(o));
      copies[o] = tile(o) * bk / chunk / threads;
    }
    stageBoth = stageOf[0] + stageOf[1];
  }
  int64_t tile(unsigned o) const { return o == 0 ? bm : bn; }
  /// [k][mn] rows of operand o, padded by 16 bytes.
  int64_t mnLastRow(unsigned o) const { return tile(o) + chunk; }
};

inline Type elementOf(Value v) { return cast<MemRefType>(v.getType()).getElementType(); }

/// Emits the kernel's pieces at `b`, in the launch body; mapTensorCore sets
/// the per-thread values (the shared buffer, thread and lane ids, the
/// block's and the warp's origin in the result).
struct Emitter {
  OpBuilder &b;
  Location loc;
  const Parts &parts;
  Sizes z;
  Value M, N, K;
  Value smem, tid, lane, m0, n0, wm, wn;

  Value idx(int64_t v) { return mlir::arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return mlir::arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t c) { return c ? add(x, idx(c)) : x; }
  Value mul(Value x, int64_t c) { return mlir::arith::MulIOp::create(b, loc, x, idx(c)); }
  Value div(Value x, int64_t c) { return mlir::arith::DivUIOp::create(b, loc, x, idx(c)); }
  Value rem(Value x, int64_t c) { return mlir::arith::RemUIOp::create(b, loc, x, idx(c)); }
  Value ult(Value x, Value y) {
    return mlir::arith::CmpIOp::create(b, loc, mlir::arith::CmpIPredicate::ult, x, y);
  }

  /// Whether operand `o` is stored with K as its contiguous (last) dim.
  bool kLast(unsigned o) const { return (o == 0) != parts.transposed[o]; }
  Value rows(unsigned o) const { return o == 0 ? M : N; }

  /// The element (row, col) of operand `o`'s stage `stage` in the shared
  /// buffer ([mn][k] or [k][mn] as the operand is stored).
  Value at(unsigned o, Value stage, Value row, Value col) {
    Value base = add(mul(stage, z.stageBoth), o == 0 ? 0 : z.stageOf[0]);
    return add(add(base, mul(row, kLast(o) ? z.kLastRow : z.mnLastRow(o))), col);
  }

  /// Operand `o`'s chunk `i` of this thread in the tile at k0: its place in
  /// the stage (row, col) and its first element (mn, k); `along` is the
  /// contiguous one of mn and k, `across` the other, with their bounds.
  struct Chunk {
    Value row, col, mn, k, along, alongBound, across, acrossBound;
  };
  Chunk chunk(unsigned o, int64_t i, Value k0);

  /// The global indices of operand `o` at (mn, k).
  SmallVector<Value> global(const Access &x, unsigned o, Value mn, Value k);

  /// Operand `o`'s tile at k0 into `stage` with cp.async, the elements past
  /// the edges zero-filled (src-size); returns the copies' tokens.
  void copyTile(const Access &x, unsigned o, Value stage, Value k0, SmallVectorImpl<Value> &tokens);

  /// The same with scalar loads (any alignment), zero past the edges.
  void loadTile(const Access &x, unsigned o, Value stage, Value k0);

  /// Both tiles at k0 into `stage`: cp.async when `aligned` (committed as
  /// one group), else scalar loads.
  void stageTiles(const Access &x, Value aligned, Value stage, Value k0);

  // Fragments and mma.sync (MatmulTensorCoreFragments.cpp).
  /// The 32-bit registers of a fragment: its rows.
  SmallVector<Value> registers(Value fragment);
  /// mma.sync.m16n8k16 on bf16 as NVVM's op: nvgpu.mma.sync lowers f16,
  /// tf32 and integers only.
  Value mmaBf16(Value a, Value bFrag, Value c);
  /// A 2-D vector of `type` from its rows.
  Value rows(VectorType type, ArrayRef<Value> values);
  /// The TF32 fragment of an operand stored [k][mn], an element at a time.
  Value loadScalars(unsigned o, Value stage, Value mn, int64_t kk, int64_t count);
  /// The fragments of one mma.sync's K at kk from `stage`, and the warp's
  /// fragsM x fragsN mma.sync.
  void multiply(Value stage, int64_t kk, SmallVectorImpl<Value> &acc);
};

} // namespace kfuse::gpu::matmul::tc

#endif // KFUSE_PASSES_GPU_MATMUL_MATMULTENSORCORE_H
