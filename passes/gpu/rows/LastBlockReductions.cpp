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
// "Last" is decided by a ticket, as in CUDA's threadFenceReduction sample:
// after a fence, one thread of each block adds 1 to a counter; the block
// that gets `gridDim - 1` saw every other block's fence and increment, so
// every other block's writes, and it resets the counter to 0.
//
// The counter is a memref.global of one i32, initialised to 0, one per
// kernel (`<kernel>_ticket`): in the gpu.module it is a PTX `.global`, on
// the host runtime and in the emulation a global of the program; nothing
// allocates it. This assumes one launch of that kernel at a time, which
// kfuse's runtime keeps (one stream, launches in order; the host runtime
// runs one launch at a time). Two launches of the same kernel overlapping
// (two streams, two host threads calling the same program at once) would
// share the counter and could both miss their last block; a launch that
// dies between a ticket and the reset (a trap) leaves it non-zero for the
// next.
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/rows/RowEmitter.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace kfuse::gpu {

mlir::MemRefType ticketType(mlir::MLIRContext *ctx) {
  using namespace mlir;
  return MemRefType::get({1}, IntegerType::get(ctx, 32));
}

namespace rows {

namespace {

/// `__threadfence()`: a device-scope acquire-release fence (PTX
/// `fence.acq_rel.gpu`; on the host an ordinary fence). LLVM 22 lowers
/// memref.atomic_rmw to a relaxed `atom.global.add` on NVPTX, so the
/// ordering comes from these fences around it.
void deviceFence(OpBuilder &b, Location loc) {
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, "device");
}

} // namespace
} // namespace rows

mlir::Value takeLastTicket(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::FlatSymbolRefAttr ticket, mlir::Value grid) {
  using namespace mlir;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Type i32 = b.getI32Type();
  Value counter = memref::GetGlobalOp::create(b, loc, ticketType(b.getContext()), ticket);
  rows::deviceFence(b, loc); // release: this block's writes before the ticket
  Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
  Value old = memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, one, counter,
                                          ValueRange{zero});
  rows::deviceFence(b, loc); // acquire: the other blocks' writes after it
  Value lastTicket = arith::IndexCastOp::create(
      b, loc, i32, arith::SubIOp::create(b, loc, grid, arith::ConstantIndexOp::create(b, loc, 1)));
  Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, old, lastTicket);
  // Every other block has taken its ticket: the counter is free again for
  // the next launch.
  auto reset = scf::IfOp::create(b, loc, last, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&reset.getThenRegion().front());
  memref::StoreOp::create(b, loc, arith::ConstantIntOp::create(b, loc, i32, 0), counter,
                          ValueRange{zero});
  return last;
}

namespace rows {
namespace {

/// Whether this block is the last of the launch to finish (an i1, the same
/// in every thread of the block). Every thread's writes before it are
/// visible to the last block after it. On the GPU: a barrier (the block's
/// writes are done), thread 0 fences, takes a ticket, fences, and shares
/// the answer through `flag` (workgroup memory); a barrier. On the host
/// (one thread a block): the fences and the ticket.
Value isLastBlock(OpBuilder &b, Location loc, FlatSymbolRefAttr ticket, Value tid,
                  Value grid, Value flag, bool host) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Type i32 = b.getI32Type();
  if (host)
    return takeLastTicket(b, loc, ticket, grid);
  ::mlir::gpu::BarrierOp::create(b, loc);
  auto first = scf::IfOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero), false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&first.getThenRegion().front());
    Value last = takeLastTicket(b, loc, ticket, grid);
    memref::StoreOp::create(b, loc, arith::ExtUIOp::create(b, loc, i32, last), flag,
                            ValueRange{zero});
  }
  ::mlir::gpu::BarrierOp::create(b, loc);
  Value shared = memref::LoadOp::create(b, loc, flag, ValueRange{zero});
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, shared,
                               arith::ConstantIntOp::create(b, loc, i32, 0));
}

/// Workgroup memory of `n` values of `type`.
MemRefType sharedOf(MLIRContext *ctx, int64_t n, Type type) {
  auto workgroup = ::mlir::gpu::AddressSpaceAttr::get(ctx, ::mlir::gpu::AddressSpace::Workgroup);
  return MemRefType::get({n}, type, MemRefLayoutAttrInterface(), workgroup);
}

/// The final part of a row chain, run by the last block: each final
/// reduction strides over all the rows (threads tid, tid + blockDim, ...),
/// combined across the block; each op over its value on thread 0.
void emitFinalPart(OpBuilder &b, Location loc, ArrayRef<linalg::LinalgOp> allOps,
                   ArrayRef<linalg::LinalgOp> finalOps, Value tid, Value blockDim,
                   ValueRange shared, bool host) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  unsigned nextShared = 0;
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
    RowEmitter emit(b, loc, layout, host);
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
      emit.reduction(generic, identity, host ? Value() : shared[nextShared++]);
    } else { // an op over the one value (unit loops)
      auto first = scf::IfOp::create(
          b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero), false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&first.getThenRegion().front());
      emit.elementwise(generic, SmallVector<Value>(generic.getNumLoops(), zero));
    }
    if (!host) // what one thread wrote, the next op's threads may read
      ::mlir::gpu::BarrierOp::create(b, loc);
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
                      linalg::GenericOp reduction, const Layout &layout, unsigned blockSize,
                      bool host, FlatSymbolRefAttr ticket) {
  linalg::LinalgOp last = ops.back();
  Location loc = last.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> colSizes;
  for (Range r : cast<linalg::LinalgOp>(reduction.getOperation()).createLoopRanges(b, loc))
    colSizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
  Value cols = product(b, loc, colSizes);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  // Blocks: four elements a thread, at most 1024 partials (on the host, a
  // block of one thread folds as many elements as a GPU block).
  Value perBlock = arith::ConstantIndexOp::create(b, loc, 4 * blockSize);
  Value blocks = arith::MinUIOp::create(
      b, loc,
      arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, cols, perBlock), one),
      arith::ConstantIndexOp::create(b, loc, 1024));
  Value threads = host ? one : arith::ConstantIndexOp::create(b, loc, blockSize).getResult();
  Operation *combiner = combinerOf(reduction);
  Type type = combiner->getResult(0).getType();
  Value partials = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, type), ValueRange{blocks});
  SmallVector<Type> shared;
  if (!host)
    shared = {sharedOf(ctx, 32, type), sharedOf(ctx, 1, b.getI32Type())};
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
    RowEmitter emit(b, loc, layout, host);
    emit.tid = launch.getThreadIds().x;
    emit.blockDim = launch.getBlockSize().x;
    emit.rowIndex = bid; // no rows: unused
    emit.colSizes = colSizes;
    if (host) { // one thread: a contiguous chunk of the columns
      Value chunk = arith::CeilDivUIOp::create(b, loc, cols, grid);
      emit.colStart = arith::MulIOp::create(b, loc, bid, chunk);
      emit.cols = arith::MinUIOp::create(
          b, loc, arith::AddIOp::create(b, loc, emit.colStart, chunk), cols);
      emit.colStep = arith::ConstantIndexOp::create(b, loc, 1);
    } else {
      emit.cols = cols;
      emit.colStart = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, bid, emit.blockDim), emit.tid);
      emit.colStep = arith::MulIOp::create(b, loc, grid, emit.blockDim);
    }
    for (linalg::LinalgOp op : ops) {
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic)
        continue;
      if (generic == reduction) {
        Value identity = identityOf();
        Value partial = emit.partialOf(generic, identity);
        if (host)
          memref::StoreOp::create(b, loc, partial, partials, ValueRange{bid});
        else
          emit.blockCombine(combiner, partial, identity, launch.getWorkgroupAttributions()[0],
                            partials, ValueRange{bid});
        break;
      }
      emit.overColumns(generic); // the same thread reads it back: no barrier
    }
    // The last block: the partials, in block order (the result does not
    // depend on which block is last), then the ops over the result.
    Value flag = host ? Value() : Value(launch.getWorkgroupAttributions()[1]);
    auto lastBlock =
        scf::IfOp::create(b, loc, isLastBlock(b, loc, ticket, emit.tid, grid, flag, host), false);
    b.setInsertionPointToStart(&lastBlock.getThenRegion().front());
    RowEmitter fin(b, loc, layout, host);
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
    if (host) {
      memref::StoreOp::create(b, loc, loop.getResult(0), dest, fin.resultIndex(reduction));
    } else {
      fin.blockCombine(combiner, loop.getResult(0), identity,
                       launch.getWorkgroupAttributions()[0], dest, fin.resultIndex(reduction));
      ::mlir::gpu::BarrierOp::create(b, loc);
    }
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

} // namespace rows

using namespace rows;

LogicalResult mapRowChainKernel(OpBuilder &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops,
                                unsigned blockSize, bool host, FlatSymbolRefAttr ticket) {
  linalg::LinalgOp last = ops.back();
  Location loc = last.getLoc();
  std::optional<ChainSplit> chain = splitRowChain(ops);
  if (!chain)
    return emitError(loc, "kf-map-kernels-to-gpu: kernel '")
           << name.getValue() << "' (row_chain) has no final reduction on buffers";
  MLIRContext *ctx = b.getContext();
  RowKernelTail tail;
  if (!host) {
    for (linalg::LinalgOp op : chain->finalOps)
      if (isReduction(op))
        tail.shared.push_back(sharedOf(
            ctx, 32, combinerOf(cast<linalg::GenericOp>(op.getOperation()))->getResult(0).getType()));
    tail.shared.push_back(sharedOf(ctx, 1, b.getI32Type())); // the last-block flag
  }
  tail.emit = [&](OpBuilder &tb, ::mlir::gpu::LaunchOp launch, ValueRange shared) {
    Value tid = launch.getThreadIds().x;
    Value flag = host ? Value() : shared.back();
    Value last = isLastBlock(tb, loc, ticket, tid, launch.getGridSize().x, flag, host);
    auto lastBlock = scf::IfOp::create(tb, loc, last, false);
    OpBuilder::InsertionGuard guard(tb);
    tb.setInsertionPointToStart(&lastBlock.getThenRegion().front());
    emitFinalPart(tb, loc, ops, chain->finalOps, tid, launch.getBlockSize().x,
                  host ? ValueRange() : shared.drop_back(), host);
  };
  mapRowKernel(b, name, chain->rowOps, blockSize, host, &tail);
  return success();
}

} // namespace kfuse::gpu
