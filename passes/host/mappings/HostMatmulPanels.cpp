//===- HostMatmulPanels.cpp - a host matmul's block shape and B panels ----===//
//
// Parts of HostMatmul.cpp's kernel that decide its speed on the small
// matmuls of real models (a 256 x 64 x 256 Linear of a 16-image Mixer),
// and how it sees its operands (rowsReadInPlace, matrixAt):
//
// - The block shape, chosen at launch from M, N and the batch. The host
//   runtime spreads a launch's blocks over its threads, never one block
//   over two, so a matmul of one 288 x 128 block ran on one core while the
//   other waited (Mixer's channel MLP: 4 of its 5 matmuls). Where the
//   largest blocks are too few, narrower ones come first, then shorter.
// - B stored [n, k] (a Linear's weight read as w.t()), packed into its
//   slivers through registers: 8 rows of B, 8 elements of k
//   each, one vector.transpose (shuffles), 8 rows of the sliver. Element
//   by element it took longer than the products it fed where K is 64.
//
//===----------------------------------------------------------------------===//
#include "passes/host/mappings/HostMatmulEpilogue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace kfuse::host::matmul {

// The block shape's arithmetic folds as it is built: with static sizes the
// kernel sees constants (its loops' trip counts among them), as it did
// when the block was always 288 x 128; an SSA value would reach the
// outlined kernel as an argument (a 64 x 64 x 16 batched matmul ran 1.4
// times slower so).
namespace {
Value cst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}
Value ceilDiv(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::CeilDivUIOp>(loc, x, y);
}
Value clamp(OpBuilder &b, Location loc, Value x, Value lo, Value hi) {
  return b.createOrFold<arith::MinUIOp>(loc, b.createOrFold<arith::MaxUIOp>(loc, x, lo), hi);
}
/// `v` rounded up to a multiple of `step`.
Value roundUp(OpBuilder &b, Location loc, Value v, int64_t step) {
  return b.createOrFold<arith::MulIOp>(loc, ceilDiv(b, loc, v, cst(b, loc, step)),
                                       cst(b, loc, step));
}
} // namespace

namespace {
/// One side of C (M or N) and how it may be cut.
struct Side {
  Value size;
  int64_t largest, step, least;
};
/// The side's block (a multiple of `step`, between `least` rounded up and
/// `largest`) and grid: enough blocks for `want` beside `across` blocks of
/// the other side, never fewer than its largest blocks give.
std::pair<Value, Value> cut(OpBuilder &b, Location loc, const Side &s, Value want,
                            Value across) {
  Value one = cst(b, loc, 1);
  auto atLeastOne = [&](Value v) { return b.createOrFold<arith::MaxUIOp>(loc, v, one); };
  Value fewest = atLeastOne(ceilDiv(b, loc, s.size, cst(b, loc, s.largest)));
  Value most = atLeastOne(ceilDiv(b, loc, s.size, cst(b, loc, s.least)));
  Value tiles = clamp(b, loc, ceilDiv(b, loc, want, across), fewest, most);
  Value block = clamp(b, loc, roundUp(b, loc, ceilDiv(b, loc, s.size, tiles), s.step),
                      cst(b, loc, s.step), cst(b, loc, s.largest));
  return {block, atLeastOne(ceilDiv(b, loc, s.size, block))};
}
} // namespace

BlockShape chooseBlockShape(OpBuilder &b, Location loc, Value M, Value N, Value batches,
                            BlockLimits limits) {
  Value one = cst(b, loc, 1);
  // Blocks each matrix of the batch needs for the launch to have
  // kMinBlocks (at least one).
  Value want = b.createOrFold<arith::MaxUIOp>(
      loc, ceilDiv(b, loc, cst(b, loc, kMinBlocks), batches), one);
  Value defaultRows = b.createOrFold<arith::MaxUIOp>(
      loc, ceilDiv(b, loc, M, cst(b, loc, limits.rows)), one);
  // Narrower blocks first: each packs its own columns of B and all of A's
  // rows again; shorter ones pack their panel of B again. On Mixer's
  // 256 x 64 x 256 Linear (2 threads) 4 blocks of 16 columns took 74 us, 8
  // of 36 rows 104, the one 288 x 128 block 87.
  auto [cols, gridX] = cut(b, loc, Side{N, limits.cols, limits.colStep, limits.colStep}, want,
                           defaultRows);
  auto [rows, gridY] =
      cut(b, loc, Side{M, limits.rows, limits.rowStep, limits.minRows}, want, gridX);
  return BlockShape{rows, cols, gridX, gridY};
}

bool packsTransposedInRegisters(Value B) {
  auto type = cast<MemRefType>(B.getType());
  return type.getRank() == 2 && type.isLastDimUnitStride() &&
         type.getElementType().getIntOrFloatBitWidth() <= 32;
}

void packTransposedSliver(OpBuilder &b, Location loc, Value B, Value Bp, Value sliver,
                          Value col, Value lastRow, Value k0, Value kcLen, int64_t width) {
  constexpr int64_t kSquare = 8; // 8 x 8 f32: one ymm register a row
  Type f32 = b.getF32Type();
  Type element = cast<MemRefType>(B.getType()).getElementType();
  auto row = VectorType::get({kSquare}, element);
  auto square = VectorType::get({kSquare, kSquare}, f32);
  Value step = cst(b, loc, kSquare);
  Value whole = arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, kcLen, step), step);
  for (int64_t half = 0; half < width / kSquare; ++half) {
    // B's rows of this half sliver; rows past N repeat row N - 1 (their
    // columns of C are never stored).
    SmallVector<Value> rows;
    for (int64_t c = 0; c < kSquare; ++c)
      rows.push_back(arith::MinUIOp::create(
          b, loc, arith::AddIOp::create(b, loc, col, cst(b, loc, half * kSquare + c)), lastRow));
    Value lane0 = cst(b, loc, half * kSquare);
    auto squares = scf::ForOp::create(b, loc, cst(b, loc, 0), whole, step);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(squares.getBody());
      Value kk = squares.getInductionVar();
      Value kIdx = arith::AddIOp::create(b, loc, k0, kk);
      Value m = arith::ConstantOp::create(b, loc, square, b.getZeroAttr(square));
      for (int64_t c = 0; c < kSquare; ++c) {
        Value v = vector::LoadOp::create(b, loc, row, B, ValueRange{rows[c], kIdx});
        if (element != f32)
          v = arith::ExtFOp::create(b, loc, VectorType::get({kSquare}, f32), v);
        m = vector::InsertOp::create(b, loc, v, m, c);
      }
      Value t = vector::TransposeOp::create(b, loc, m, ArrayRef<int64_t>{1, 0});
      for (int64_t i = 0; i < kSquare; ++i)
        vector::StoreOp::create(b, loc, vector::ExtractOp::create(b, loc, t, i), Bp,
                                ValueRange{sliver, arith::AddIOp::create(b, loc, kk, cst(b, loc, i)),
                                           lane0});
    }
    // The last kcLen % 8 elements of k, one at a time.
    auto tail = scf::ForOp::create(b, loc, whole, kcLen, cst(b, loc, 1));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(tail.getBody());
    Value kk = tail.getInductionVar();
    Value kIdx = arith::AddIOp::create(b, loc, k0, kk);
    for (int64_t c = 0; c < kSquare; ++c) {
      Value v = memref::LoadOp::create(b, loc, B, ValueRange{rows[c], kIdx});
      if (element != f32)
        v = arith::ExtFOp::create(b, loc, f32, v);
      memref::StoreOp::create(b, loc, v, Bp,
                              ValueRange{sliver, kk, cst(b, loc, half * kSquare + c)});
    }
  }
}

/// Whether A's rows (stored [m, k], contiguous) are read in place rather
/// than packed: a static row stride at which no more than 3 of a register
/// tile's rows fall in one L1 set (sets repeat every 4 KiB on x86 L1s:
/// 64 sets of 64-byte lines). Packing copies A once for each column block
/// of C; it only pays where the tile's `tileRows` rows would evict each
/// other.
/// Measured on one core (docs/BENCHMARKS.md): BERT's 512 x 64 x 64 Linears
/// on a Zen 4, ~10% of the kernel in the copies, which MKL's 46 us beat
/// our 51.5 by; on a Zen 3 (AVX2), 272 x K x 192 Linears read in place
/// against packed (bench/host/): 0.92x the time at K = 768, 0.83 at 512.
/// At K = 1024 and 2048 (all 6 rows in one set) an experiment reading them
/// in place was faster still on the Zen 3 (0.88, 0.83), but on a Zen 4
/// the micro-kernel ran at a third of its speed so (packA), and with
/// AVX-512's 32-wide slivers the packed B fills every way of the L1:
/// those stay packed.
bool rowsReadInPlace(MemRefType a, int64_t tileRows) {
  SmallVector<int64_t> strides;
  int64_t offset;
  // A batched A (rank > 2): its matrices' rows are its next-to-last dim
  // (matrixAt).
  if (failed(a.getStridesAndOffset(strides, offset)) || strides.size() < 2)
    return false;
  int64_t rowStride = strides[strides.size() - 2];
  if (ShapedType::isDynamic(rowStride))
    return false;
  return rowsSharingAnL1Set(rowStride * (a.getElementTypeBitWidth() / 8), tileRows) <= 3;
}

int64_t rowsSharingAnL1Set(int64_t rowBytes, int64_t tileRows) {
  constexpr int64_t kLine = 64, kSetPeriod = 4096;
  int64_t most = 0;
  for (int64_t r = 0; r < tileRows; ++r) {
    int64_t sharing = 1;
    for (int64_t other = r + 1; other < tileRows; ++other) {
      // Rows closer than a line read the same lines, not rivals for a set.
      int64_t apart = (other - r) * rowBytes;
      int64_t phase = apart % kSetPeriod;
      sharing += apart >= kLine && (phase < kLine || phase > kSetPeriod - kLine);
    }
    most = std::max(most, sharing);
  }
  return most;
}

/// `operand` (A or B, indexed by `map`) at the block's batch indices: its
/// last two dims as a rank-reduced memref.subview, so that the packing and
/// the micro-kernel stay 2-D. A leading index 0 is a broadcast dim.
Value matrixAt(OpBuilder &b, Location loc, Value operand, AffineMap map, ArrayRef<Value> batch) {
  auto type = cast<MemRefType>(operand.getType());
  int64_t rank = type.getRank();
  if (rank == 2)
    return operand;
  SmallVector<OpFoldResult> offsets, sizes, strides(rank, b.getIndexAttr(1));
  for (int64_t i = 0; i < rank; ++i) {
    bool lead = i < rank - 2;
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(i));
    offsets.push_back(lead && dim ? OpFoldResult(batch[dim.getPosition()])
                                  : OpFoldResult(b.getIndexAttr(0)));
    sizes.push_back(lead ? OpFoldResult(b.getIndexAttr(1))
                         : memref::getMixedSize(b, loc, operand, i));
  }
  MemRefType view = memref::SubViewOp::inferRankReducedResultType(
      type.getShape().take_back(2), type, offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, view, operand, offsets, sizes, strides);
}

} // namespace kfuse::host::matmul
