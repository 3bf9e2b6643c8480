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

/// Rows a block stages before writing a transposed result (mapRowKernel):
/// a 64-byte line of f32 a column.
static constexpr int64_t kStaged = 16;

void kfuse::host::runRowPass(OpBuilder &b, Location loc, const Layout &layout,
                             ArrayRef<linalg::LinalgOp> ops, const Pass &pass,
                             ArrayRef<Value> rowSizes, ArrayRef<Value> colSizes,
                             ArrayRef<Value> rows, Value begin, Value end, Value cols,
                             const DenseMap<Value, Value> &scratch, ArrayRef<Value> scratchRows,
                             const DenseMap<Value, linalg::GenericOp> &recompute,
                             unsigned vectorBits, int64_t accumulators) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  if (pass.rowOp) { // one value a row: the scalar emitter's code, a row after another
    launch::HostLaunchTarget host;
    for (Value row : rows) {
      gpu::rows::RowEmitter scalar(b, loc, layout, host);
      scalar.tid = zero;
      scalar.rowIndex = row;
      scalar.rowSizes = SmallVector<Value>(rowSizes);
      scalar.colSizes = SmallVector<Value>(colSizes);
      scalar.cols = cols;
      scalar.overRow(pass.rowOp);
    }
    return;
  }
  int64_t lanes = rowLanes(pass, vectorBits, getConstantIntValue(cols));
  std::vector<HostRowEmitter> emitters;
  emitters.reserve(rows.size());
  SmallVector<HostRowEmitter *> each;
  for (auto [row, scratchRow] : llvm::zip_equal(rows, scratchRows)) {
    HostRowEmitter &emit = emitters.emplace_back(b, loc, layout, ops, lanes);
    emit.rowIvs = gpu::delinearize(b, loc, row, rowSizes);
    emit.scratch = scratch;
    emit.scratchRow = scratchRow;
    emit.recompute = recompute;
    each.push_back(&emit);
  }
  SmallVector<Value> values = HostRowEmitter::runRows(each, pass, begin, end, accumulators);
  linalg::GenericOp red = pass.reduction;
  for (auto [v, emit] : llvm::zip_equal(values, each)) {
    if (!v)
      continue;
    memref::StoreOp::create(
        b, loc, v, red.getDpsInits()[0],
        gpu::indices(b, loc, red.getMatchingIndexingMap(red.getDpsInitOperand(0)),
                     emit->ivs(zero)));
  }
}

/// Writes a group of staged rows [start, end) (scratch rows from
/// `firstScratchRow`) of a kernel over one row dim to `buffer`, which
/// holds them transposed ([column, row]): 8 columns at a time, each of
/// the group's rows loaded as a vector of 8 columns, and each column
/// stored as a vector of the group's consecutive rows (masked to the
/// group: the next rows are another block's).
static void writeTransposedTile(OpBuilder &b, Location loc, Value staged, Value buffer,
                                AffineMap map, Value start, Value end, Value firstScratchRow,
                                Value cols) {
  constexpr int64_t kColumns = 8;
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Type element = cast<MemRefType>(buffer.getType()).getElementType();
  auto rowVector = VectorType::get({kColumns}, element);
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(rowVector, b.getZeroAttr(element)));
  Value rowMask = vector::CreateMaskOp::create(
      b, loc, VectorType::get({kStaged}, b.getI1Type()),
      ValueRange{arith::SubIOp::create(b, loc, end, start)});
  scf::ForOp::create(
      b, loc, index(0), cols, index(kColumns), ValueRange(),
      [&](OpBuilder &nested, Location, Value c, ValueRange) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
        Value left = arith::SubIOp::create(b, loc, cols, c);
        Value colMask = vector::CreateMaskOp::create(
            b, loc, VectorType::get({kColumns}, b.getI1Type()), ValueRange{left});
        SmallVector<Value> rows;
        for (int64_t k = 0; k < kStaged; ++k) {
          Value row = arith::AddIOp::create(b, loc, firstScratchRow, index(k));
          rows.push_back(vector::MaskedLoadOp::create(b, loc, rowVector, staged,
                                                      ValueRange{row, c}, colMask, zeros));
        }
        // The 16 x 8 tile turned as one vector.transpose (one shufflevector,
        // as the host's transposes: unpack and permute instructions).
        Value tile = arith::ConstantOp::create(
            b, loc, DenseElementsAttr::get(VectorType::get({kStaged, kColumns}, element),
                                           b.getZeroAttr(element)));
        for (auto [k, row] : llvm::enumerate(rows))
          tile = vector::InsertOp::create(b, loc, row, tile, int64_t(k));
        Value turned = vector::TransposeOp::create(b, loc, tile, ArrayRef<int64_t>{1, 0});
        for (int64_t i = 0; i < kColumns; ++i) {
          Value column = arith::AddIOp::create(b, loc, c, index(i));
          auto inside = scf::IfOp::create(
              b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, column, cols),
              false);
          OpBuilder::InsertionGuard inner(b);
          b.setInsertionPointToStart(&inside.getThenRegion().front());
          Value v = vector::ExtractOp::create(b, loc, turned, i);
          vector::MaskedStoreOp::create(b, loc, buffer,
                                        kfuse::gpu::indices(b, loc, map, {start, column}), rowMask, v);
        }
        scf::YieldOp::create(b, loc);
      });
}

void kfuse::host::mapRowKernel(OpBuilder &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops,
                               unsigned vectorBits) {
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
  // Rows a block: a kernel of at most kSmallWork elements is one block;
  // larger ones have at least kMinBlocks blocks (HostPool balances them
  // over the cores, and runs them inline where its measure of a block's
  // time says waking the workers does not pay), each at most kBlockWork
  // elements when rows are many (1024 x 1024 f32: 16 rows, 64 KiB, half of
  // L2, 64 blocks), and at most kMaxBlocks blocks (4096 x 4096: 64 rows a
  // block), so that the blocks' scratch rows (rowLocalBuffers) stay few
  // and in cache. A row's passes cost a few ns an element (a softmax's
  // exp), so kSmallWork is a quarter of a pointwise block: ViT's softmax
  // over 1088 rows of 17 (18,496 elements) was one block, 60 us on one
  // core.
  constexpr int64_t kBlockWork = 16384, kSmallWork = 4096, kMinBlocks = 8, kMaxBlocks = 64;
  Value total = arith::MulIOp::create(b, loc, rows, cols);
  Value byWork = arith::CeilDivUIOp::create(b, loc, index(kBlockWork),
                                            arith::MaxUIOp::create(b, loc, cols, one));
  Value byBlocks =
      arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, rows, index(kMinBlocks)), one);
  Value small = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, total,
                                      index(kSmallWork));
  Value perBlock = arith::SelectOp::create(
      b, loc, small, arith::MaxUIOp::create(b, loc, rows, one),
      arith::MaxUIOp::create(b, loc, arith::MinUIOp::create(b, loc, byWork, byBlocks),
                             arith::CeilDivUIOp::create(b, loc, rows, index(kMaxBlocks))));
  // Staging (below) writes whole groups of kStaged rows: a block is some.
  SmallVector<std::pair<Value, AffineMap>> transposed = transposedOutputs(ops, layout);
  if (!transposed.empty())
    perBlock = arith::MulIOp::create(
        b, loc, arith::CeilDivUIOp::create(b, loc, perBlock, index(kStaged)), index(kStaged));
  Value grid = arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, rows, perBlock),
                                      one);
  // A result written transposed (transposedOutputs) is staged: a block
  // runs its rows kStaged at a time, each row's values going to a row of
  // scratch, then writes the group out column by column, kStaged
  // consecutive elements (a 64-byte line of f32) at a time. Scattered
  // straight from the lanes, a row's values land a row of the result
  // apart each, on one cache set (4 KiB apart for 1024 rows): 4-6x slower
  // than a row kernel and a transpose kernel (bench/transposed-epilogue.sh).
  // Short rows (static, at most kPairedCols columns) run two (or four) at a time
  // (HostRowEmitter::runRows): one row's passes are chains of dependent
  // ops (a sum's adds, the lanes' tree, the mean and 1 / sqrt(var) between
  // passes) too short for the core to overlap; BERT's layer norms over
  // rows of 64 waited on them (22.6 us for 512 rows on one core). Every
  // row of such a kernel, a block's last rows too, keeps kUnroll / 2
  // accumulators, so that its sums are added in the same order. Rows of
  // at most kQuadCols run four at a time: a softmax over rows of 64
  // (attention's scores in BERT, T5, Llama) 106 -> 99 us for 2048 rows.
  constexpr int64_t kPairedCols = 256, kQuadCols = 64;
  std::optional<int64_t> staticCols = getConstantIntValue(cols);
  bool paired = transposed.empty() && staticCols && *staticCols <= kPairedCols;
  int64_t together = paired && *staticCols <= kQuadCols ? 4 : 2;
  int64_t group = transposed.empty() ? (paired ? together : 1) : kStaged;
  Value groupRows = index(group);
  // One scratch row a block (a group of rows a block when staging) for
  // each row-local buffer not recomputed, and each transposed result.
  DenseMap<Value, linalg::GenericOp> recompute = recomputableBuffers(ops, layout);
  DenseMap<Value, Value> scratch;
  SmallVector<Value> scratchBuffers;
  SmallVector<Value> local = rowLocalBuffers(ops, layout);
  for (auto &[buffer, map] : transposed) {
    recompute.erase(buffer); // staged and stored, always
    if (!llvm::is_contained(local, buffer))
      local.push_back(buffer);
  }
  for (Value buffer : local) {
    if (recompute.contains(buffer))
      continue;
    auto type = MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic},
                                cast<MemRefType>(buffer.getType()).getElementType());
    Value row = memref::AllocOp::create(
        b, loc, type, ValueRange{arith::MulIOp::create(b, loc, grid, groupRows), cols});
    scratch[buffer] = row;
    scratchBuffers.push_back(row);
  }
  auto launch = gpu::buildKernelLaunch(b, loc, name.getValue(), {grid, one, one, one, one, one});
  b.setInsertionPointToStart(&launch.getBody().front());
  Value block = launch.getBlockIds().x;
  Value firstRow = arith::MulIOp::create(b, loc, block, perBlock);
  Value lastRow = arith::MinUIOp::create(b, loc, arith::AddIOp::create(b, loc, firstRow, perBlock),
                                         rows);
  Value firstScratchRow = arith::MulIOp::create(b, loc, block, groupRows);
  SmallVector<Pass> passes = passesOf(ops, layout);
  auto forLoop = [&](Value from, Value to, Value step, auto body) {
    scf::ForOp::create(b, loc, from, to, step, ValueRange(),
                       [&](OpBuilder &nested, Location, Value iv, ValueRange) {
                         OpBuilder::InsertionGuard inner(b);
                         b.setInsertionPoint(nested.getInsertionBlock(),
                                             nested.getInsertionPoint());
                         body(iv);
                         scf::YieldOp::create(b, loc);
                       });
  };
  Value zero = index(0);
  if (paired) { // two or four rows at a time, then a block's last rows
    Value step = index(together);
    Value groupsEnd = arith::AddIOp::create(
        b, loc, firstRow,
        arith::MulIOp::create(
            b, loc,
            arith::DivUIOp::create(b, loc, arith::SubIOp::create(b, loc, lastRow, firstRow), step),
            step));
    SmallVector<Value> scratchRows{firstScratchRow};
    for (int64_t k = 1; k < together; ++k)
      scratchRows.push_back(arith::AddIOp::create(b, loc, firstScratchRow, index(k)));
    forLoop(firstRow, groupsEnd, step, [&](Value row) {
      SmallVector<Value> group{row};
      for (int64_t k = 1; k < together; ++k)
        group.push_back(arith::AddIOp::create(b, loc, row, index(k)));
      for (const Pass &pass : passes)
        runRowPass(b, loc, layout, ops, pass, rowSizes, colSizes, group, zero, cols, cols,
                   scratch, scratchRows, recompute, vectorBits, kUnroll / 2);
    });
    forLoop(groupsEnd, lastRow, one, [&](Value row) {
      for (const Pass &pass : passes)
        runRowPass(b, loc, layout, ops, pass, rowSizes, colSizes, {row}, zero, cols, cols,
                   scratch, {firstScratchRow}, recompute, vectorBits, kUnroll / 2);
    });
  } else if (transposed.empty()) { // a row at a time, its scratch row the block's
    forLoop(firstRow, lastRow, one, [&](Value row) {
      for (const Pass &pass : passes)
        runRowPass(b, loc, layout, ops, pass, rowSizes, colSizes, {row}, zero, cols, cols,
                   scratch, {firstScratchRow}, recompute, vectorBits);
    });
  } else { // groups of kStaged rows, then their transposed results
    forLoop(firstRow, lastRow, groupRows, [&](Value start) {
      Value end = arith::MinUIOp::create(b, loc, arith::AddIOp::create(b, loc, start, groupRows),
                                         lastRow);
      forLoop(start, end, one, [&](Value row) {
        Value scratchRow = arith::AddIOp::create(b, loc, firstScratchRow,
                                                 arith::SubIOp::create(b, loc, row, start));
        for (const Pass &pass : passes)
          runRowPass(b, loc, layout, ops, pass, rowSizes, colSizes, {row}, zero, cols, cols,
                     scratch, {scratchRow}, recompute, vectorBits);
      });
      // The group's values, column by column: consecutive rows are
      // consecutive elements of a transposed result.
      for (auto &[buffer, map] : transposed) {
        Value staged = scratch.lookup(buffer);
        if (rowSizes.size() == 1) { // x.softmax(1).t(): 16 x 8 tiles turned in registers
          writeTransposedTile(b, loc, staged, buffer, map, start, end, firstScratchRow, cols);
          continue;
        }
        forLoop(zero, cols, one, [&](Value c) {
          forLoop(start, end, one, [&](Value row) {
            Value scratchRow = arith::AddIOp::create(b, loc, firstScratchRow,
                                                     arith::SubIOp::create(b, loc, row, start));
            Value v = memref::LoadOp::create(b, loc, staged, ValueRange{scratchRow, c});
            SmallVector<Value> ivs = gpu::delinearize(b, loc, row, rowSizes);
            ivs.push_back(c);
            memref::StoreOp::create(b, loc, v, buffer, gpu::indices(b, loc, map, ivs));
          });
        });
      }
    });
  }
  gpu::finishLaunch(b, loc, launch);
  b.setInsertionPointAfter(launch);
  for (Value row : scratchBuffers)
    memref::DeallocOp::create(b, loc, row);
}
