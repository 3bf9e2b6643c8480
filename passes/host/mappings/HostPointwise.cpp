//===- HostPointwise.cpp - pointwise kernels for a CPU core per block -----===//
//
// The flat mapping for the host runtime. On the GPU a block is 256 threads
// of 4 elements, and a thread has no vector arithmetic, so the GPU's code
// loads vectors and computes lane by lane (PointwiseKernels.cpp). A CPU core
// is the opposite: one thread, wide vector units, and a cost per block (the
// pool hands blocks out one chunk at a time) that 1,024 elements do not
// amortize. So here a block is kChunkElements consecutive elements (each
// operand's share fits the L2 cache beside the others'), one thread, and a
// loop of `lanes` elements a step in real vector arithmetic (vector<8xf32>
// is one AVX2 register), then a scalar tail. An array of at most
// kChunkElements is one block, which the runtime runs on the calling thread
// without waking its pool.
//
// Upstream's linalg vectorizer (linalg::vectorize) would produce the same
// vector body from the generics, but needs static shapes or masks (AVX2 has
// no cheap masked arithmetic) and runs on linalg ops, which are gone here:
// the kernel's generics are already bufferized and fused, and the body is
// cloned straight into the launch as the GPU mapping does.
//
//===----------------------------------------------------------------------===//
#include "passes/host/mappings/HostMappings.h"
#include "passes/launch/MappingUtils.h"
#include "passes/gpu/flat/PointwiseBody.h"
#include "passes/host/mappings/HostVectorBody.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using kfuse::gpu::PointwiseBody;
using kfuse::host::VectorBody;

namespace {

/// Elements a block computes: 16K f32 elements are 64 KiB an operand, so
/// add_relu's three operands (192 KiB) stay in a 512 KiB L2 while the core
/// streams them, and a launch of 1e6 elements has 62 blocks to balance
/// over the cores.
constexpr int64_t kChunkElements = 16384;

/// Elements a block of a kernel whose body does more than a few ops an
/// element: kChunkElements scaled down by its work (elementWork) over
/// kCheapWork, so that a block takes about as long as a cheap kernel's
/// (a few µs), at least kMinChunkElements, a multiple of kChunkAlign (the
/// flat loop's vectors start at the block's start). ConvNeXt's 7 x 7
/// depthwise convolution (49 windows: about 200 ops an element) was one
/// block of 16K elements, 106 µs that a second core could not share;
/// scaled, 1,310 elements, 13 blocks.
constexpr int64_t kCheapWork = 16, kMinChunkElements = 512, kChunkAlign = 64;

/// What a kernel does for one element: every op of its bodies and every
/// input it reads (a load each), a math function (erf, exp, tanh: a
/// polynomial of a dozen ops or more once approximated) as kMathWork.
int64_t elementWork(ArrayRef<linalg::GenericOp> ops) {
  constexpr int64_t kMathWork = 8;
  int64_t work = 0;
  for (linalg::GenericOp op : ops) {
    work += op.getNumDpsInputs();
    for (Operation &inner : op.getBody()->without_terminator())
      work += isa<math::MathDialect>(inner.getDialect()) ? kMathWork : 1;
  }
  return work;
}

int64_t chunkElementsFor(ArrayRef<linalg::GenericOp> ops) {
  int64_t work = elementWork(ops);
  if (work <= kCheapWork)
    return kChunkElements;
  int64_t chunk = kChunkElements * kCheapWork / work;
  return std::max(kMinChunkElements, chunk / kChunkAlign * kChunkAlign);
}

/// The loop a kernel runs as rows of vectors along, if any: every op over
/// the same loops, each map reading along that loop as its last result
/// (its last dim; the loop possibly shifted by a constant: windows of a
/// depthwise convolution) and in no other, or not at all (a broadcast over
/// it: a bias over the last dim is a vector, a value per row or a 0-d
/// operand one value); its other results any function of the other loops,
/// the same for every lane of a row (a cat's input read at (i - 1) mod 16:
/// ViT's class token and patches, element by element before, 156 -> 5.4
/// us on one core), the buffers contiguous along their last dim (views
/// such as slices included) with elements of at least a byte.
/// The last loop first; else the last loop along which every input is read
/// so, some input as a vector, the results then stored lane by lane where
/// their last dim is another loop (ConvNeXt's depthwise convolution reads
/// 49 windows of an NCHW input along W and writes NHWC: each window a
/// vector along W, where along C every read was a strided element, 382 us
/// element by element). Before views and shifts were taken, a 7 x 7
/// depthwise convolution ran element by element.
std::optional<unsigned> rowwiseLoop(ArrayRef<linalg::GenericOp> ops) {
  // Every op over the same loops (sharedLoops, but linalg.index is known
  // here: the row's indices, or the lanes' along the row).
  SmallVector<int64_t> ranges = linalg::GenericOp(ops.front()).getStaticLoopRanges();
  if (ranges.empty() || llvm::any_of(ops, [&](linalg::GenericOp op) {
        return op.getNumReductionLoops() || linalg::GenericOp(op).getStaticLoopRanges() != ranges;
      }))
    return std::nullopt;
  for (linalg::GenericOp op : ops)
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = cast<MemRefType>(operand.get().getType());
      if (!type.isLastDimUnitStride() || !type.getElementType().isIntOrFloat() ||
          type.getElementTypeBitWidth() < 8)
        return std::nullopt;
    }
  // Whether the operand is read along loop v as its last dim (or not at all);
  // an input may be read k elements a lane (a strided pool's window) or
  // within a period (a cat's input: (d + a) mod m + c).
  auto alongLast = [](linalg::GenericOp op, OpOperand &operand, unsigned v) {
    ArrayRef<AffineExpr> results = op.getMatchingIndexingMap(&operand).getResults();
    if (llvm::none_of(results, [&](AffineExpr e) { return e.isFunctionOfDim(v); }))
      return std::optional<bool>(false);
    AffineExpr along = getAffineDimExpr(v, op.getContext());
    bool strided = op.isDpsInput(&operand) && (kfuse::host::strideOf(results.back(), along) ||
                                                kfuse::host::periodOf(results.back(), along));
    if ((!kfuse::host::isShiftOf(results.back(), along) && !strided) ||
        llvm::any_of(results.drop_back(), [&](AffineExpr e) { return e.isFunctionOfDim(v); }))
      return std::optional<bool>();
    return std::optional<bool>(true);
  };
  unsigned last = ranges.size() - 1;
  for (int v = last; v >= 0; --v) {
    bool ok = true, someVector = false;
    for (linalg::GenericOp op : ops)
      for (OpOperand &operand : op->getOpOperands()) {
        std::optional<bool> along = alongLast(op, operand, v);
        bool input = op.isDpsInput(&operand);
        if (!along && (input || unsigned(v) == last))
          ok = false; // the last loop: results along it too, as before
        someVector |= input && along.value_or(false);
      }
    if (ok && (unsigned(v) == last || someVector))
      return unsigned(v);
  }
  return std::nullopt;
}

/// Whether a transpose moves whole rows: every operand read or written
/// along the last loop as its last dim (rowwiseLoop chose it), rows of at
/// least kMinMovedRow elements (or not known). Such a permutation (a head
/// split, [B, T, H, D] to [B, H, T, D]) is a row copy: vectors along each
/// row, where the 32 x 32 tiles of mapTransposeKernel are not full (17 or
/// 16 rows) and ran element by element: ViT-Tiny's q/k/v split ([16, 17,
/// 3, 3, 64] to [3, 16, 3, 17, 64]) 62 us on one core. Shorter rows (a
/// patch embedding's 2 x 2 positions) keep the tiles' in-block loops.
bool movesRows(ArrayRef<linalg::GenericOp> ops, unsigned v) {
  constexpr int64_t kMinMovedRow = 16;
  SmallVector<int64_t> ranges = linalg::GenericOp(ops.front()).getStaticLoopRanges();
  if (v + 1 != ranges.size())
    return false;
  return ShapedType::isDynamic(ranges[v]) || ranges[v] >= kMinMovedRow;
}

/// A kernel of rows along loop `v` (rowwiseLoop): a block is a range of
/// rows (the other loops, in order) and a range of columns of about
/// kChunkElements, each row whole vectors, then a scalar tail; the loop
/// indices come from the row (one division a row, not an element).
void mapRowwiseKernel(OpBuilder &b, StringAttr name, ArrayRef<linalg::GenericOp> ops,
                      ArrayRef<Value> sizes, unsigned v, unsigned lanes,
                      PointwiseBody &scalarBody) {
  Location loc = ops.front()->getLoc();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value chunk = arith::ConstantIndexOp::create(b, loc, chunkElementsFor(ops));
  SmallVector<Value> outer(sizes);
  outer.erase(outer.begin() + v);
  Value rows = kfuse::gpu::product(b, loc, outer), cols = sizes[v];
  // Columns in pieces of at most a chunk; as many rows as a chunk holds.
  Value colBlocks = arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, cols, chunk), one);
  Value rowsPerBlock = arith::MaxUIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, chunk, arith::MaxUIOp::create(b, loc, cols, one)), one);
  Value rowBlocks = arith::CeilDivUIOp::create(b, loc, rows, rowsPerBlock);
  Value grid = arith::MaxUIOp::create(b, loc, arith::MulIOp::create(b, loc, rowBlocks, colBlocks), one);
  llvm::DenseMap<Value, Value> noViews;
  auto launch = kfuse::gpu::buildKernelLaunch(b, loc, name.getValue(),
                                              {grid, one, one, one, one, one});
  b.setInsertionPointToStart(&launch.getBody().front());
  Value bid = launch.getBlockIds().x;
  Value rowBlock = arith::DivUIOp::create(b, loc, bid, colBlocks);
  Value colBlock = arith::RemUIOp::create(b, loc, bid, colBlocks);
  Value firstRow = arith::MulIOp::create(b, loc, rowBlock, rowsPerBlock);
  Value lastRow = arith::MinUIOp::create(b, loc, arith::AddIOp::create(b, loc, firstRow, rowsPerBlock), rows);
  Value firstCol = arith::MulIOp::create(b, loc, colBlock, chunk);
  Value lastCol = arith::MinUIOp::create(b, loc, arith::AddIOp::create(b, loc, firstCol, chunk), cols);
  auto rowLoop = scf::ForOp::create(b, loc, firstRow, lastRow, one);
  b.setInsertionPointToStart(rowLoop.getBody());
  SmallVector<Value> ivs = kfuse::gpu::delinearize(b, loc, rowLoop.getInductionVar(), outer);
  auto at = [&](Value col) {
    SmallVector<Value> here(ivs);
    here.insert(here.begin() + v, col);
    return here;
  };
  kfuse::host::vectorsThenTail(
      b, loc, firstCol, lastCol, lanes,
      [&](Value col) { VectorBody(ops, noViews, lanes, v).emit(b, loc, at(col)); },
      [&](Value col) { scalarBody.scalarAt(b, loc, at(col)); });
  kfuse::gpu::finishLaunch(b, loc, launch);
}

} // namespace

LogicalResult kfuse::host::mapPointwiseKernel(OpBuilder &b, StringAttr name,
                                              ArrayRef<linalg::GenericOp> ops) {
  for (linalg::GenericOp op : ops)
    if (!op.hasPureBufferSemantics())
      return op.emitError("kf-map-kernels-to-host: kernel '")
             << name.getValue() << "' is not a bufferized pointwise op";
  if (succeeded(kfuse::host::mapCatKernel(b, name, ops)) ||
      succeeded(kfuse::host::mapPadKernel(b, name, ops)))
    return success();
  OpBuilder::InsertionGuard guard(b);
  Location loc = ops.front()->getLoc();
  bool vectors = kfuse::gpu::isVectorizable(ops);
  unsigned lanes = kfuse::host::lanesFor(ops);

  std::vector<SmallVector<Value>> opSizes = kfuse::gpu::parallelSizes(b, loc, ops);
  std::optional<unsigned> v = vectors ? std::nullopt : rowwiseLoop(ops);
  bool rowwise = v && VectorBody::supports(ops, /*withIndex=*/true);
  unsigned rowLanes = lanes;
  if (rowwise) {
    // A cat along the row (a rotary embedding's halves) is read in vectors
    // that stay inside its inputs' periods; at least 2 lanes, or the flat
    // loop.
    rowLanes = kfuse::host::lanesWithinPeriods(ops, *v, lanes);
    rowwise = rowLanes >= 2;
  }
  if (!vectors && kfuse::host::isTranspose(ops) && !(rowwise && movesRows(ops, *v))) {
    PointwiseBody body(ops, opSizes);
    kfuse::host::mapTransposeKernel(b, name, ops, opSizes.back(), lanes, body);
    return success();
  }
  if (rowwise) {
    PointwiseBody body(ops, opSizes);
    mapRowwiseKernel(b, name, ops, opSizes.back(), *v, rowLanes, body);
    return success();
  }
  Value n = kfuse::gpu::product(b, loc, opSizes.back());
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value chunk = arith::ConstantIndexOp::create(b, loc, chunkElementsFor(ops));
  Value grid = arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, n, chunk), one);
  llvm::DenseMap<Value, Value> flat;
  if (vectors)
    flat = kfuse::gpu::flatViews(b, loc, ops);
  auto launch = kfuse::gpu::buildKernelLaunch(b, loc, name.getValue(),
                                              {grid, one, one, one, one, one});

  b.setInsertionPointToStart(&launch.getBody().front());
  Value start = arith::MulIOp::create(b, loc, launch.getBlockIds().x, chunk);
  Value end = arith::MinUIOp::create(b, loc, arith::AddIOp::create(b, loc, start, chunk), n);
  PointwiseBody scalarBody(ops, opSizes);
  Value tailStart = start;
  if (vectors) {
    // Whole vectors from the block's start (a multiple of the lanes);
    // two registers a step where the body's chains are long.
    lanes = kfuse::host::interleavedLanesFor(ops);
    Value width = arith::ConstantIndexOp::create(b, loc, lanes);
    Value whole = arith::MulIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, arith::SubIOp::create(b, loc, end, start), width),
        width);
    tailStart = arith::AddIOp::create(b, loc, start, whole);
    auto loop = scf::ForOp::create(b, loc, start, tailStart, width);
    OpBuilder::InsertionGuard inLoop(b);
    b.setInsertionPointToStart(loop.getBody());
    if (VectorBody::supports(ops))
      VectorBody(ops, flat, lanes).emit(b, loc, {loop.getInductionVar()});
    else // a body op with no vector form (a call): lane by lane, as on the GPU
      scalarBody.vector(b, loc, loop.getInductionVar(), lanes, flat);
  }
  // The tail (or, for broadcasts and views, every element): one by one.
  auto tail = scf::ForOp::create(b, loc, tailStart, end, one);
  b.setInsertionPointToStart(tail.getBody());
  scalarBody.scalar(b, loc, tail.getInductionVar());
  kfuse::gpu::finishLaunch(b, loc, launch);
  return success();
}
