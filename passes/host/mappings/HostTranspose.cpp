//===- HostTranspose.cpp - transposes on the CPU, in tiles ----------------===//
//
// A kernel that reads or writes an operand transposed walks one side with
// a stride whatever order its elements go in: element order reads a
// column of the input, a cache line an element. In 32 x 32 tiles both
// sides stay in L1 while the tile is walked; in a full tile of 32-bit
// elements whose transposed operand swaps the last two loops, each 8 x 8
// block is 8 vector loads along the input's rows, one vector.transpose
// (shuffles in registers) and 8 vector stores along the output's rows,
// the kernel's other ops computed on those vectors.
//
//===----------------------------------------------------------------------===//
#include "passes/host/mappings/HostVectorBody.h"
#include "passes/launch/MappingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using kfuse::gpu::PointwiseBody;

namespace {

/// The side of a transpose's square tile: 32 x 32 f32 is 4 KiB an
/// operand, so a tile's reads (32 rows of one operand) and writes (32 rows
/// of the other) both stay in L1 while one side is walked across.
constexpr int64_t kTransposeTile = 32;

/// The side of the blocks transposed in registers: 8 lanes of 32 bits.
constexpr int64_t kBlock = 8;

/// The most elements a block walks where the loops before the tile's are
/// static: as many of them (innermost first) as fit run as loops inside
/// the block, not as blocks of the grid (a flat kernel's block is as
/// large). A patch embedding's transpose ([16, 16, 4, 2, 4, 2] to [16, 4,
/// 4, 16, 2, 2], ConvNeXt's downsampling) has 2 x 2 tiles: a block a tile
/// took 95 us for 16K elements on one core, dividing its index into six
/// for every four elements. A quarter of a flat kernel's block: these
/// run element by element, about 0.5 ns each on one core (vectors are a
/// few times faster), so that 16K elements are four blocks for the pool
/// to share (ConvNeXt's NHWC to NCHW copies, 8-14 us as one block, ran
/// the same on 2 threads as on 1).
constexpr int64_t kBlockElements = 4096;

/// Whether an input map reads across the tile: a permutation whose last
/// result is the row loop (the second last), so that the input's last
/// dim runs along the tile's rows and the column loop is another of its
/// dims. Swapping the last two loops is one ([B, C, K] read as [B, K, C]);
/// BERT's k^T ([8, 64, 4, 16] to [8, 4, 16, 64], loops (b, h, d, t)
/// reading (b, t, h, d)) is another.
bool readsAcross(AffineMap map) {
  unsigned rank = map.getNumDims();
  return rank >= 2 && map.getNumResults() == rank && map.isPermutation() &&
         map.getResult(rank - 1) == getAffineDimExpr(rank - 2, map.getContext());
}

/// The side of a tile along a loop of static `size`: kTransposeTile, or
/// the whole loop where it is shorter and a whole number of blocks (a
/// head's 16 dims), so that its tiles are full and go through registers.
int64_t tileSide(std::optional<int64_t> size) {
  return size && *size < kTransposeTile && *size % kBlock == 0 ? *size : kTransposeTile;
}

/// How many of the loops before the tile's (`outer`) stay in the grid:
/// the others, the innermost whose static sizes times the tile's
/// elements fit kBlockElements, are loops in the block.
size_t gridLoops(ArrayRef<Value> outer, int64_t tileElements) {
  int64_t work = tileElements;
  size_t k = outer.size();
  while (k > 0) {
    std::optional<int64_t> size = getConstantIntValue(outer[k - 1]);
    if (!size || work * *size > kBlockElements)
      break;
    work *= *size;
    --k;
  }
  return k;
}

/// Whether full tiles can go through registers: 8 lanes of 32 bits, a
/// vector form for every body op, inputs swapped in their last two loops
/// or read along the last loop (or broadcast over it), results along it.
bool hasVectorTiles(ArrayRef<linalg::GenericOp> ops, unsigned lanes) {
  if (lanes != kBlock || !kfuse::host::VectorBody::supports(ops))
    return false;
  for (linalg::GenericOp op : ops) {
    AffineExpr last = getAffineDimExpr(op.getNumLoops() - 1, op.getContext());
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      auto type = cast<MemRefType>(operand.get().getType());
      if (!type.getLayout().isIdentity() || type.getElementTypeBitWidth() != 32)
        return false;
      if (!op.isDpsInit(&operand) && readsAcross(map))
        continue;
      ArrayRef<AffineExpr> results = map.getResults();
      bool reads = llvm::is_contained(results, last);
      if ((reads && results.back() != last) || (op.isDpsInit(&operand) && !reads))
        return false;
    }
  }
  return true;
}

/// The 8 x 8 block at (r, c) of the kernel: each operand read across's 8
/// rows (along its last dim, the output's r; at c .. c + 7) loaded and
/// transposed, then 8 rows of outputs computed as vectors along c.
void emitVectorBlock(OpBuilder &b, Location loc, ArrayRef<linalg::GenericOp> ops,
                     ArrayRef<Value> outer, Value r, Value c) {
  llvm::DenseMap<Value, SmallVector<Value>> transposed; // buffer -> rows
  for (linalg::GenericOp op : ops)
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (!readsAcross(map) ||
          transposed.count(input->get()))
        continue;
      Type element = cast<MemRefType>(input->get().getType()).getElementType();
      auto row = VectorType::get({kBlock}, element);
      auto square = VectorType::get({kBlock, kBlock}, element);
      Value m = arith::ConstantOp::create(b, loc, square, b.getZeroAttr(square));
      for (int64_t k = 0; k < kBlock; ++k) {
        SmallVector<Value> ivs(outer);
        ivs.push_back(r);
        ivs.push_back(arith::AddIOp::create(b, loc, c, arith::ConstantIndexOp::create(b, loc, k)));
        Value v = vector::LoadOp::create(b, loc, row, input->get(),
                                         kfuse::gpu::indices(b, loc, map, ivs));
        m = vector::InsertOp::create(b, loc, v, m, k);
      }
      Value t = vector::TransposeOp::create(b, loc, m, ArrayRef<int64_t>{1, 0});
      SmallVector<Value> rows;
      for (int64_t k = 0; k < kBlock; ++k)
        rows.push_back(vector::ExtractOp::create(b, loc, t, k));
      transposed[input->get()] = rows;
    }
  llvm::DenseMap<Value, Value> noViews;
  for (int64_t i = 0; i < kBlock; ++i) {
    kfuse::host::VectorBody body(ops, noViews, kBlock);
    body.readOverride = [&](OpOperand &operand) -> Value {
      auto op = cast<linalg::GenericOp>(operand.getOwner());
      if (!readsAcross(op.getMatchingIndexingMap(&operand)))
        return Value();
      return transposed.lookup(operand.get())[i];
    };
    SmallVector<Value> ivs(outer);
    ivs.push_back(arith::AddIOp::create(b, loc, r, arith::ConstantIndexOp::create(b, loc, i)));
    ivs.push_back(c);
    body.emit(b, loc, ivs);
  }
}

} // namespace

/// Whether the kernel reads or writes an operand transposed: every op over
/// the same loops (rank >= 2, one iteration space), maps that are
/// (projected) permutations, and one of them not keeping the last loop
/// last. Element order then leaves one side strided; tiles keep both in
/// cache.
bool kfuse::host::isTranspose(ArrayRef<linalg::GenericOp> ops) {
  std::optional<SmallVector<int64_t>> ranges = kfuse::gpu::sharedLoops(ops);
  if (!ranges || ranges->size() < 2)
    return false;
  bool transposed = false;
  for (linalg::GenericOp op : ops) {
    for (AffineMap map : op.getIndexingMapsArray()) {
      if (!map.isProjectedPermutation())
        return false;
      transposed |= map.isPermutation() && !map.isIdentity();
    }
  }
  return transposed;
}

/// A transpose kernel: a block per 32 x 32 tile of the last two loops (the
/// loops before them spread over the grid too, but those that fit a
/// block's kBlockElements run in it), the elements at their loop indices
/// (no division per element). A last loop shorter than 32 that is whole
/// blocks of 8 is a tile's side (tileSide).
void kfuse::host::mapTransposeKernel(OpBuilder &b, StringAttr name,
                                     ArrayRef<linalg::GenericOp> ops, ArrayRef<Value> sizes,
                                     unsigned lanes, PointwiseBody &body) {
  Location loc = ops.front()->getLoc();
  size_t rank = sizes.size();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  // Where the last two loops are one tile (static, at most 32 x 32), the
  // outer loops that fit run in the block, the tile inside them, in the
  // grid's order. (With several tiles a block would sweep its outer loops
  // for each tile: ResNet's im2col transposes, 64 x 64 tiles' worth, took
  // twice as long so.)
  size_t inGrid = rank - 2;
  std::optional<int64_t> rows = getConstantIntValue(sizes[rank - 2]);
  std::optional<int64_t> cols = getConstantIntValue(sizes[rank - 1]);
  if (rows && cols && *rows <= kTransposeTile && *cols <= kTransposeTile)
    inGrid = gridLoops(sizes.drop_back(2), *rows * *cols);
  Value rowSide = arith::ConstantIndexOp::create(b, loc, tileSide(rows));
  Value colSide = arith::ConstantIndexOp::create(b, loc, tileSide(cols));
  SmallVector<Value> gridSizes(sizes.begin(), sizes.begin() + inGrid);
  gridSizes.push_back(arith::CeilDivUIOp::create(b, loc, sizes[rank - 2], rowSide));
  gridSizes.push_back(arith::CeilDivUIOp::create(b, loc, sizes[rank - 1], colSide));
  Value tiles = kfuse::gpu::product(b, loc, gridSizes);
  Value grid = arith::MaxUIOp::create(b, loc, tiles, one);
  auto launch = kfuse::gpu::buildKernelLaunch(b, loc, name.getValue(),
                                              {grid, one, one, one, one, one});
  b.setInsertionPointToStart(&launch.getBody().front());
  // An empty iteration space still has a block (a grid is never empty),
  // which runs nothing.
  Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                    launch.getBlockIds().x, tiles);
  auto guard = scf::IfOp::create(b, loc, any, /*withElseRegion=*/false);
  b.setInsertionPointToStart(&guard.getThenRegion().front());
  SmallVector<Value> ids = kfuse::gpu::delinearize(b, loc, launch.getBlockIds().x, gridSizes);
  SmallVector<Value> ivs(ids.begin(), ids.end() - 2);
  Value rowTile = ids[ids.size() - 2], colTile = ids.back();
  // The outer loops the block runs itself (static bounds: no division).
  for (Value size : sizes.slice(inGrid, rank - 2 - inGrid)) {
    auto loop = scf::ForOp::create(b, loc, arith::ConstantIndexOp::create(b, loc, 0), size, one);
    b.setInsertionPointToStart(loop.getBody());
    ivs.push_back(loop.getInductionVar());
  }
  auto tileLoop = [&](Value tileId, Value tile, Value size) {
    Value from = arith::MulIOp::create(b, loc, tileId, tile);
    Value to = arith::MinUIOp::create(b, loc, arith::AddIOp::create(b, loc, from, tile), size);
    auto loop = scf::ForOp::create(b, loc, from, to, one);
    b.setInsertionPointToStart(loop.getBody());
    return loop.getInductionVar();
  };
  // (No full tile where a static loop is shorter than its tile's side.)
  bool fullTiles = (!rows || *rows >= tileSide(rows)) && (!cols || *cols >= tileSide(cols));
  if (fullTiles && hasVectorTiles(ops, lanes)) {
    // A full tile: 8 x 8 blocks through registers; a tile cut by an edge
    // element by element.
    Value r0 = arith::MulIOp::create(b, loc, rowTile, rowSide);
    Value c0 = arith::MulIOp::create(b, loc, colTile, colSide);
    auto fits = [&](Value from, Value tile, Value size) {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                   arith::AddIOp::create(b, loc, from, tile), size);
    };
    auto full = scf::IfOp::create(
        b, loc,
        arith::AndIOp::create(b, loc, fits(r0, rowSide, sizes[rank - 2]),
                              fits(c0, colSide, sizes[rank - 1])),
        /*withElseRegion=*/true);
    b.setInsertionPointToStart(&full.getThenRegion().front());
    Value step = arith::ConstantIndexOp::create(b, loc, kBlock);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    auto rowBlocks = scf::ForOp::create(b, loc, zero, rowSide, step);
    b.setInsertionPointToStart(rowBlocks.getBody());
    auto colBlocks = scf::ForOp::create(b, loc, zero, colSide, step);
    b.setInsertionPointToStart(colBlocks.getBody());
    emitVectorBlock(b, loc, ops, ivs,
                    arith::AddIOp::create(b, loc, r0, rowBlocks.getInductionVar()),
                    arith::AddIOp::create(b, loc, c0, colBlocks.getInductionVar()));
    b.setInsertionPointToStart(&full.getElseRegion().front());
  }
  ivs.push_back(tileLoop(rowTile, rowSide, sizes[rank - 2]));
  ivs.push_back(tileLoop(colTile, colSide, sizes[rank - 1]));
  body.scalarAt(b, loc, ivs);
  kfuse::gpu::finishLaunch(b, loc, launch);
}

