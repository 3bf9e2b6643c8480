//===- HostRows.cpp - row kernels for a CPU core per block ----------------===//
//
// A block is a run of consecutive rows, one core's share; each row runs
// the kernel's passes (HostRowEmitter.h) while it is in L1/L2: softmax is
// three passes (max; exp and sum, exp stored; divide), layer_norm three
// (sum; squared deviation and sum; normalize, x - mean recomputed rather
// than stored: HostRowBuffers.cpp), with the values of the row
// (max, mean) loaded once a row and the ops over one value a row (mean =
// sum / n) run in scalar code between them.
//
// Fallback: kernels whose columns are several loops, not the innermost
// loop (x.sum(0): the rows are columns of memory), or read along the
// columns with a stride, and bodies with ops that have no vector form here,
// keep the scalar mapping of the GPU's design (gpu::mapRowKernel, one
// thread a block, a block per row). isVectorizable says which.
//
//===----------------------------------------------------------------------===//
#include "passes/host/mappings/HostMappings.h"
#include "passes/host/mappings/HostRowEmitter.h"

using namespace mlir;
using namespace kfuse::host::rows;
using kfuse::gpu::rows::isReduction;

void kfuse::host::runRowPass(OpBuilder &b, Location loc, const Layout &layout,
                             ArrayRef<linalg::LinalgOp> ops, const Pass &pass,
                             ArrayRef<Value> rowSizes, ArrayRef<Value> colSizes, Value row,
                             Value begin, Value end, Value cols,
                             const DenseMap<Value, Value> &scratch, Value scratchRow,
                             const DenseMap<Value, linalg::GenericOp> &recompute) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  if (pass.rowOp) { // one value a row: the scalar emitter's code
    launch::HostLaunchTarget host;
    gpu::rows::RowEmitter scalar(b, loc, layout, host);
    scalar.tid = zero;
    scalar.rowIndex = row;
    scalar.rowSizes = SmallVector<Value>(rowSizes);
    scalar.colSizes = SmallVector<Value>(colSizes);
    scalar.cols = cols;
    scalar.overRow(pass.rowOp);
    return;
  }
  HostRowEmitter emit(b, loc, layout, ops);
  emit.rowIvs = gpu::delinearize(b, loc, row, rowSizes);
  emit.scratch = scratch;
  emit.scratchRow = scratchRow;
  emit.recompute = recompute;
  Value v = emit.run(pass, begin, end);
  if (!v)
    return;
  linalg::GenericOp red = pass.reduction;
  memref::StoreOp::create(b, loc, v, red.getDpsInits()[0],
                          gpu::indices(b, loc, red.getMatchingIndexingMap(red.getDpsInitOperand(0)),
                                       emit.ivs(zero)));
}

void kfuse::host::mapRowKernel(OpBuilder &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops) {
  linalg::LinalgOp first;
  Layout layout = kfuse::gpu::rows::layoutOf(ops, first);
  if (!first || !isVectorizable(ops, layout)) {
    (void)kfuse::gpu::mapRowKernel(b, name, ops, launch::HostLaunchTarget(),
                                   kf::KernelVariant::ThroughMemory);
    return;
  }
  OpBuilder::InsertionGuard guard(b);
  linalg::LinalgOp lastOp = ops.back();
  Location loc = lastOp.getLoc();
  SmallVector<Value> rowSizes, colSizes;
  for (auto [i, r] : llvm::enumerate(first.createLoopRanges(b, loc))) {
    Value size = getValueOrCreateConstantIndexOp(b, loc, r.size);
    (layout.isRowDim[i] ? rowSizes : colSizes).push_back(size);
  }
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value one = index(1);
  Value rows = gpu::product(b, loc, rowSizes);
  Value cols = colSizes[0];
  // Rows a block: a block is worth a core's wake-up from kBlockWork
  // elements on, and a kernel this small or smaller is one block; larger
  // ones have at least kMinBlocks blocks (HostPool balances them over the
  // cores), each at most kBlockWork elements when rows are many (1024 x
  // 1024 f32: 16 rows, 64 KiB, half of L2, 64 blocks), and at most
  // kMaxBlocks blocks (4096 x 4096: 64 rows a block), so that the blocks'
  // scratch rows (rowLocalBuffers) stay few and in cache.
  constexpr int64_t kBlockWork = 16384, kMinBlocks = 8, kMaxBlocks = 64;
  Value total = arith::MulIOp::create(b, loc, rows, cols);
  Value byWork = arith::CeilDivUIOp::create(b, loc, index(kBlockWork),
                                            arith::MaxUIOp::create(b, loc, cols, one));
  Value byBlocks =
      arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, rows, index(kMinBlocks)), one);
  Value small = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, total,
                                      index(2 * kBlockWork));
  Value perBlock = arith::SelectOp::create(
      b, loc, small, arith::MaxUIOp::create(b, loc, rows, one),
      arith::MaxUIOp::create(b, loc, arith::MinUIOp::create(b, loc, byWork, byBlocks),
                             arith::CeilDivUIOp::create(b, loc, rows, index(kMaxBlocks))));
  Value grid = arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, rows, perBlock),
                                      one);
  // One scratch row a block for each row-local buffer not recomputed.
  DenseMap<Value, linalg::GenericOp> recompute = recomputableBuffers(ops, layout);
  DenseMap<Value, Value> scratch;
  SmallVector<Value> scratchBuffers;
  for (Value buffer : rowLocalBuffers(ops, layout)) {
    if (recompute.contains(buffer))
      continue;
    auto type = MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic},
                                cast<MemRefType>(buffer.getType()).getElementType());
    Value row = memref::AllocOp::create(b, loc, type, ValueRange{grid, cols});
    scratch[buffer] = row;
    scratchBuffers.push_back(row);
  }
  auto launch = gpu::buildKernelLaunch(b, loc, name.getValue(), {grid, one, one, one, one, one});
  b.setInsertionPointToStart(&launch.getBody().front());
  Value firstRow = arith::MulIOp::create(b, loc, launch.getBlockIds().x, perBlock);
  Value lastRow = arith::MinUIOp::create(b, loc, arith::AddIOp::create(b, loc, firstRow, perBlock),
                                         rows);
  SmallVector<Pass> passes = passesOf(ops, layout);
  scf::ForOp::create(b, loc, firstRow, lastRow, one, ValueRange(),
                     [&](OpBuilder &nested, Location, Value row, ValueRange) {
                       OpBuilder::InsertionGuard inner(b);
                       b.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
                       Value zero = arith::ConstantIndexOp::create(b, loc, 0);
                       for (const Pass &pass : passes)
                         runRowPass(b, loc, layout, ops, pass, rowSizes, colSizes, row, zero,
                                    cols, cols, scratch, launch.getBlockIds().x, recompute);
                       scf::YieldOp::create(b, loc);
                     });
  gpu::finishLaunch(b, loc, launch);
  b.setInsertionPointAfter(launch);
  for (Value row : scratchBuffers)
    memref::DeallocOp::create(b, loc, row);
}
