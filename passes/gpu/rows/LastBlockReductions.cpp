//===- LastBlockReductions.cpp - reductions finished by the last block ---===//
//
// Two kernel shapes whose reduction needs every block's work, each one
// launch (as the report counts it):
// - a full reduction (no rows, `grid_reduction`): blocks stride over the
//   tensor, each writes its partial; the last block to finish combines the
//   partials and runs the ops after the reduction;
// - a row chain (`row_chain`): a block per row, then the last block to
//   finish runs a final reduction over the rows' results and the ops over
//   its value (`x.sum(1).sum(0)`).
// "Last" is decided by a ticket (launch/LastBlockTicket.h); what a block
// is (a CUDA block, or one host thread) the LaunchTarget says.
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/rows/RowEmitter.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace kfuse::gpu {

namespace rows {
namespace {

/// The final part of a row chain, run by the last block: each final
/// reduction strides over all the rows (threads tid, tid + blockDim, ...),
/// combined across the block; each op over its value on thread 0.
void emitFinalPart(OpBuilder &b, Location loc, ArrayRef<linalg::LinalgOp> allOps,
                   ArrayRef<linalg::LinalgOp> finalOps, Value tid, Value blockDim,
                   ValueRange scratch, const launch::LaunchTarget &target) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  for (linalg::LinalgOp op : finalOps) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic)
      continue; // fills: the reduction starts from the value
    Layout layout;
    for (utils::IteratorType t : op.getIteratorTypesArray())
      layout.isRowDim.push_back(t == utils::IteratorType::parallel);
    layout.sizes = op.getStaticLoopRanges();
    layout.rows = op.getNumParallelLoops();
    layout.cols = op.getNumReductionLoops();
    RowEmitter emit(b, loc, layout, target);
    emit.tid = tid;
    emit.blockDim = blockDim;
    if (isReduction(op)) {
      // Its parallel loops are unit dims: one "row", whose columns are the
      // row kernel's rows.
      for (auto [i, r] : llvm::enumerate(op.createLoopRanges(b, loc))) {
        Value size = getValueOrCreateConstantIndexOp(b, loc, r.size);
        (layout.isRowDim[i] ? emit.rowSizes : emit.colSizes).push_back(size);
      }
      emit.rowIndex = zero;
      emit.cols = product(b, loc, emit.colSizes);
      emit.colStart = tid;
      emit.colStep = blockDim;
      Value identity =
          arith::ConstantOp::create(b, loc, initialValue(generic, allOps).getValue());
      size_t n = target.combineScratch(b.getContext(), identity.getType()).size();
      emit.reduction(generic, identity, scratch.take_front(n));
      scratch = scratch.drop_front(n);
    } else { // an op over the one value (unit loops)
      auto first = scf::IfOp::create(
          b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero), false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&first.getThenRegion().front());
      emit.elementwise(generic, SmallVector<Value>(generic.getNumLoops(), zero));
    }
    target.barrier(b, loc); // what one thread wrote, the next op's threads may read
  }
}

} // namespace

/// The single reduction of a full reduction kernel whose other ops are
/// elementwise over its columns before it and over its (one) row after it:
/// such a kernel is a grid reduction. Null otherwise.
linalg::GenericOp gridReductionOf(ArrayRef<linalg::LinalgOp> ops, const Layout &layout) {
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

/// A full reduction in one launch `<name>`: blocks over the whole tensor,
/// each storing its combined partial; the last block combines the
/// partials, then runs the ops over the result.
void mapGridReduction(OpBuilder &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops,
                      linalg::GenericOp reduction, const Layout &layout,
                      const launch::LaunchTarget &target, FlatSymbolRefAttr ticket) {
  linalg::LinalgOp last = ops.back();
  Location loc = last.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> colSizes;
  for (Range r : cast<linalg::LinalgOp>(reduction.getOperation()).createLoopRanges(b, loc))
    colSizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
  Value cols = product(b, loc, colSizes);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  // Blocks: as many elements each as the target's block folds, at most
  // 1024 partials.
  Value perBlock = arith::ConstantIndexOp::create(b, loc, target.gridReductionBlockElements());
  Value blocks = arith::MinUIOp::create(
      b, loc,
      arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, cols, perBlock), one),
      arith::ConstantIndexOp::create(b, loc, 1024));
  Value threads = target.threadsPerBlock(b, loc, [](Value max) { return max; });
  Operation *combiner = combinerOf(reduction);
  Type type = combiner->getResult(0).getType();
  Value partials = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, type), ValueRange{blocks});
  // The combine's workgroup buffers, then the last-block answer's.
  SmallVector<Type> shared = target.combineScratch(ctx, type);
  size_t numCombine = shared.size();
  llvm::append_range(shared, target.lastBlockScratch(ctx));
  auto launch = buildKernelLaunch(b, loc, name.getValue(),
                                  {blocks, one, one, threads, one, one}, shared);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&launch.getBody().front());
    Value bid = launch.getBlockIds().x, grid = launch.getGridSize().x;
    auto identityOf = [&]() {
      return arith::ConstantOp::create(b, loc, initialValue(reduction, ops).getValue())
          .getResult();
    };
    // The ops up to the reduction, over this block's columns.
    ValueRange workgroup = launch.getWorkgroupAttributions();
    ValueRange combineScratch = workgroup.take_front(numCombine);
    RowEmitter emit(b, loc, layout, target);
    emit.tid = launch.getThreadIds().x;
    emit.blockDim = launch.getBlockSize().x;
    emit.rowIndex = bid; // no rows: unused
    emit.colSizes = colSizes;
    launch::ThreadShare share = target.gridShare(b, loc, bid, grid, emit.tid, emit.blockDim, cols);
    emit.colStart = share.begin;
    emit.cols = share.end;
    emit.colStep = share.step;
    for (linalg::LinalgOp op : ops) {
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic)
        continue;
      if (generic == reduction) {
        Value identity = identityOf();
        Value partial = emit.partialOf(generic, identity);
        emit.blockCombine(combiner, partial, identity, combineScratch, partials, ValueRange{bid});
        break;
      }
      emit.overColumns(generic); // the same thread reads it back: no barrier
    }
    // The last block: the partials, in block order (the result does not
    // depend on which block is last), then the ops over the result.
    Value isLast =
        target.isLastBlock(b, loc, ticket, emit.tid, grid, workgroup.drop_front(numCombine));
    auto lastBlock = scf::IfOp::create(b, loc, isLast, false);
    b.setInsertionPointToStart(&lastBlock.getThenRegion().front());
    RowEmitter fin(b, loc, layout, target);
    fin.tid = emit.tid;
    fin.blockDim = emit.blockDim;
    fin.rowIndex = bid;
    fin.colSizes = {grid};
    fin.cols = grid;
    fin.colStart = fin.tid;
    fin.colStep = fin.blockDim;
    Value identity = identityOf();
    scf::ForOp loop = fin.columns(identity, [&](ArrayRef<Value> i, ValueRange acc) {
      Value p = memref::LoadOp::create(b, loc, partials, ValueRange{i[0]});
      return SmallVector<Value>{fin.combine(combiner, acc[0], p)};
    });
    Value dest = reduction.getDpsInitOperand(0)->get();
    fin.blockCombine(combiner, loop.getResult(0), identity, combineScratch, dest,
                     fin.resultIndex(reduction));
    target.barrier(b, loc); // thread 0 wrote the value the ops after it read
    bool after = false;
    for (linalg::LinalgOp op : ops) {
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (generic && after)
        fin.overRow(generic);
      after |= generic == reduction;
    }
    finishLaunch(b, loc, launch);
  }
  memref::DeallocOp::create(b, loc, partials);
}

namespace {

/// Whether `op` reduces to one value: a reduction whose parallel loops, if
/// any, are static unit dims.
bool reducesToOneValue(linalg::LinalgOp op) {
  if (!isReduction(op))
    return false;
  for (auto [t, s] : llvm::zip(op.getIteratorTypesArray(), op.getStaticLoopRanges()))
    if (t == utils::IteratorType::parallel && s != 1)
      return false;
  return true;
}

/// The sizes other than static 1s.
SmallVector<int64_t> nonUnit(ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> out;
  for (int64_t s : sizes)
    if (s != 1)
      out.push_back(s);
  return out;
}

} // namespace

std::optional<ChainSplit> splitRowChain(ArrayRef<linalg::LinalgOp> ops) {
  linalg::LinalgOp first;
  std::optional<size_t> split;
  for (auto [i, constOp] : llvm::enumerate(ops)) {
    linalg::LinalgOp op = constOp;
    if (!isReduction(op))
      continue;
    if (!first) {
      first = op;
      continue;
    }
    if (op.getIteratorTypesArray() == first.getIteratorTypesArray() &&
        op.getStaticLoopRanges() == first.getStaticLoopRanges())
      continue; // the same family of rows
    if (!reducesToOneValue(op))
      return std::nullopt; // another family: the row check refuses it
    split = i;
    break;
  }
  // A full reduction first (no rows) has no rows to chain.
  if (!split || first.getNumParallelLoops() == 0)
    return std::nullopt;
  llvm::DenseSet<Value> finalInits;
  for (linalg::LinalgOp op : ops.drop_front(*split))
    if (isReduction(op))
      finalInits.insert(op.getDpsInits()[0]);
  ChainSplit chain;
  for (linalg::LinalgOp op : ops.take_front(*split)) {
    auto fill = dyn_cast<linalg::FillOp>(op.getOperation());
    (fill && finalInits.count(filledBuffer(fill)) ? chain.finalOps : chain.rowOps).push_back(op);
  }
  llvm::append_range(chain.finalOps, ops.drop_front(*split));
  return chain;
}

LogicalResult checkFinalPart(const ChainSplit &chain, const Layout &layout,
                                   function_ref<InFlightDiagnostic()> refuse) {
  if (layout.rows == 0)
    return refuse() << "its final reduction follows a full reduction (no rows)";
  SmallVector<int64_t> rowSizes;
  for (auto [i, s] : llvm::enumerate(layout.sizes))
    if (layout.isRowDim[i])
      rowSizes.push_back(s);
  for (linalg::LinalgOp op : chain.finalOps) {
    if (auto fill = dyn_cast<linalg::FillOp>(op.getOperation())) {
      bool initOfReduction = llvm::any_of(chain.finalOps, [&](linalg::LinalgOp r) {
        return isReduction(r) && r.getDpsInits()[0] == filledBuffer(fill);
      });
      if (!initOfReduction)
        return refuse() << "a fill after its final reduction does not start a reduction";
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic)
      return refuse() << "it holds a " << op->getName().getStringRef();
    if (isReduction(op)) {
      // The last block strides over the rows: a final reduction over more
      // (the row kernel's columns too) would be one block's work.
      SmallVector<int64_t> reduced;
      for (auto [t, s] : llvm::zip(op.getIteratorTypesArray(), op.getStaticLoopRanges()))
        if (t == utils::IteratorType::reduction)
          reduced.push_back(s);
      if (!reducesToOneValue(op))
        return refuse() << "a reduction after its final reduction keeps rows";
      if (nonUnit(reduced) != nonUnit(rowSizes))
        return refuse() << "its final reduction is not over its rows (the last block "
                           "strides over the rows' values only)";
      if (generic.getNumDpsInits() != 1)
        return refuse() << "a reduction has several results";
      Operation *combine = combinerOf(generic);
      arith::ConstantOp init = initialValue(generic, chain.finalOps);
      if (!combine || !init || !isIdentityOf(combine, init))
        return refuse() << "a reduction is not a combination from its identity";
      continue;
    }
    if (llvm::any_of(generic.getStaticLoopRanges(), [](int64_t s) { return s != 1; }))
      return refuse() << "an op after its final reduction is not over its one value";
    for (OpOperand &init : generic.getDpsInitsMutable())
      if (!generic.getMatchingIndexingMap(&init).isIdentity())
        return refuse() << "a result is not written in iteration order";
  }
  return success();
}


} // namespace rows

using namespace rows;

LogicalResult mapRowChainKernel(OpBuilder &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops,
                                const launch::LaunchTarget &target, kf::KernelVariant variant,
                                FlatSymbolRefAttr ticket) {
  linalg::LinalgOp last = ops.back();
  Location loc = last.getLoc();
  std::optional<ChainSplit> chain = splitRowChain(ops);
  if (!chain)
    return emitError(loc, "kernel '")
           << name.getValue() << "' (row_chain) has no final reduction on buffers";
  MLIRContext *ctx = b.getContext();
  RowKernelTail tail;
  // Each final reduction's combine buffers, then the last-block answer's.
  for (linalg::LinalgOp op : chain->finalOps)
    if (isReduction(op))
      llvm::append_range(
          tail.shared,
          target.combineScratch(
              ctx, combinerOf(cast<linalg::GenericOp>(op.getOperation()))->getResult(0).getType()));
  size_t numCombine = tail.shared.size();
  llvm::append_range(tail.shared, target.lastBlockScratch(ctx));
  tail.emit = [&](OpBuilder &tb, ::mlir::gpu::LaunchOp launch, ValueRange shared) {
    Value tid = launch.getThreadIds().x;
    Value last = target.isLastBlock(tb, loc, ticket, tid, launch.getGridSize().x,
                                    shared.drop_front(numCombine));
    auto lastBlock = scf::IfOp::create(tb, loc, last, false);
    OpBuilder::InsertionGuard guard(tb);
    tb.setInsertionPointToStart(&lastBlock.getThenRegion().front());
    emitFinalPart(tb, loc, ops, chain->finalOps, tid, launch.getBlockSize().x,
                  shared.take_front(numCombine), target);
  };
  return success(succeeded(mapRowKernel(b, name, chain->rowOps, target, variant, &tail)));
}

} // namespace kfuse::gpu
