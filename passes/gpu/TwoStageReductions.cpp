//===- TwoStageReductions.cpp - full reductions in two launches -----------===//
//
// One block per row would give a full reduction (no rows) one block for
// the whole tensor. Instead: `<name>_partials`, blocks striding over the
// tensor, each storing its block's combined partial, then `<name>`, one
// block combining the partials and running the ops after the reduction.
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/RowEmitter.h"

namespace kfuse::gpu::rows {

/// The single reduction of a full reduction kernel whose other ops are
/// elementwise over its columns before it and over its (one) row after it:
/// such a kernel takes two launches. Null otherwise.
linalg::GenericOp twoStageReduction(ArrayRef<linalg::LinalgOp> ops, const Layout &layout) {
  if (layout.rows != 0)
    return nullptr;
  linalg::GenericOp reduction;
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic)
      continue;
    if (isReduction(op)) {
      if (reduction)
        return nullptr;
      reduction = generic;
    } else if (reduction && !layout.isRowOp(generic)) {
      return nullptr;
    }
  }
  return reduction;
}

/// A full reduction in two launches: `<name>_partials` (blocks striding
/// over the whole tensor, each storing its combined partial) and `<name>`
/// (one block combining the partials, then the ops over the result).
void mapTwoStage(OpBuilder &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops,
                 linalg::GenericOp reduction, const Layout &layout, unsigned blockSize) {
  linalg::LinalgOp last = ops.back();
  Location loc = last.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> colSizes;
  for (Range r : cast<linalg::LinalgOp>(reduction.getOperation()).createLoopRanges(b, loc))
    colSizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
  Value cols = product(b, loc, colSizes);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value threads = arith::ConstantIndexOp::create(b, loc, blockSize);
  // Blocks: four elements a thread, at most 1024 partials.
  Value perBlock = arith::ConstantIndexOp::create(b, loc, 4 * blockSize);
  Value blocks = arith::MinUIOp::create(
      b, loc,
      arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, cols, perBlock), one),
      arith::ConstantIndexOp::create(b, loc, 1024));
  Operation *combiner = combinerOf(reduction);
  Type type = combiner->getResult(0).getType();
  Value partials = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, type), ValueRange{blocks});
  auto workgroup = ::mlir::gpu::AddressSpaceAttr::get(ctx, ::mlir::gpu::AddressSpace::Workgroup);
  Type shared = MemRefType::get({32}, type, MemRefLayoutAttrInterface(), workgroup);
  auto identityOf = [&](OpBuilder &at) {
    return arith::ConstantOp::create(at, loc, initialValue(reduction, ops).getValue())
        .getResult();
  };
  auto launch = [&](Value grid, StringRef kernel) {
    return buildKernelLaunch(b, loc, kernel,
                             {grid, one, one, threads, one, one},
                             TypeRange{shared});
  };

  // Stage 1: the ops up to the reduction, over this block's columns.
  auto first = launch(blocks, (name.getValue() + "_partials").str());
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&first.getBody().front());
    RowEmitter emit(b, loc, layout, /*host=*/false);
    emit.tid = first.getThreadIds().x;
    emit.blockDim = first.getBlockSize().x;
    emit.rowIndex = first.getBlockIds().x; // no rows: unused
    emit.colSizes = colSizes;
    emit.cols = cols;
    emit.colStart = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, first.getBlockIds().x, emit.blockDim), emit.tid);
    emit.colStep = arith::MulIOp::create(b, loc, first.getGridSize().x, emit.blockDim);
    for (linalg::LinalgOp op : ops) {
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic)
        continue;
      if (generic == reduction) {
        Value identity = identityOf(b);
        emit.blockCombine(combiner, emit.partialOf(generic, identity), identity,
                          first.getWorkgroupAttributions()[0], partials,
                          ValueRange{first.getBlockIds().x});
        break;
      }
      emit.overColumns(generic); // the same thread reads it back: no barrier
    }
    ::mlir::gpu::TerminatorOp::create(b, loc);
  }
  // Stage 2: the partials, then the ops over the result.
  auto second = launch(one, name.getValue());
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&second.getBody().front());
    RowEmitter emit(b, loc, layout, /*host=*/false);
    emit.tid = second.getThreadIds().x;
    emit.blockDim = second.getBlockSize().x;
    emit.rowIndex = second.getBlockIds().x;
    emit.colSizes = {blocks};
    emit.cols = blocks;
    emit.colStart = emit.tid;
    emit.colStep = emit.blockDim;
    Value identity = identityOf(b);
    scf::ForOp loop = emit.columns(identity, [&](ArrayRef<Value> i, ValueRange acc) {
      Value p = memref::LoadOp::create(b, loc, partials, ValueRange{i[0]});
      return SmallVector<Value>{emit.combine(combiner, acc[0], p)};
    });
    emit.blockCombine(combiner, loop.getResult(0), identity,
                      second.getWorkgroupAttributions()[0],
                      reduction.getDpsInitOperand(0)->get(), emit.resultIndex(reduction));
    ::mlir::gpu::BarrierOp::create(b, loc);
    bool after = false;
    for (linalg::LinalgOp op : ops) {
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (generic && after)
        emit.overRow(generic);
      after |= generic == reduction;
    }
    ::mlir::gpu::TerminatorOp::create(b, loc);
  }
  memref::DeallocOp::create(b, loc, partials);
}

} // namespace kfuse::gpu::rows
