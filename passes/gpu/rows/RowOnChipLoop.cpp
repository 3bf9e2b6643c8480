//===- RowOnChipLoop.cpp - rows that do not fit, and the launch ----------===//
#include "passes/gpu/rows/RowOnChipEmitter.h"
#include "passes/utils/CompensatedSum.h"

using namespace mlir;

namespace kfuse::gpu::rows {

scf::ForOp OnChip::overSlots(Value slots, ValueRange inits,
                             function_ref<SmallVector<Value>(Value, ValueRange)> body) {
  return scf::ForOp::create(b, loc, tid, slots, blockDim, inits,
                            [&](OpBuilder &nested, Location, Value s, ValueRange acc) {
                              OpBuilder::InsertionGuard guard(b);
                              b.setInsertionPoint(nested.getInsertionBlock(),
                                                  nested.getInsertionPoint());
                              scf::YieldOp::create(b, loc, body(s, acc));
                            });
}

// A general fused row kernel: each pass recomputes the column values it
// needs from the kernel's inputs (cheap elementwise math against a global
// read and write of an intermediate). Softmax's max-then-sum and
// layer_norm's mean-then-variance are one pass where the kernel has that
// shape (RowOnChipOnline.cpp).
void OnChip::looped(ArrayRef<Value> shared) {
  Value v = constant(plan.vector);
  // V divides the innermost column size, so the row is whole vectors.
  Value slots = plan.vector > 1 ? arith::DivUIOp::create(b, loc, cols, v).getResult() : cols;
  auto slotAt = [&](Value s) { return slot(arith::MulIOp::create(b, loc, s, v), Value()); };
  unsigned nextShared = 0;
  std::optional<unsigned> pairedWith; // a reduction done with an earlier one
  for (auto [i, kind] : llvm::enumerate(plan.kinds)) {
    if (pairedWith == i)
      continue;
    if (std::optional<OnlinePair> pair = findOnlinePair(plan, i)) {
      // Both reductions in one pass; the column ops between them (stores
      // of values that read the first) follow in their own passes.
      Value first = shared[nextShared++], second = shared[nextShared++];
      if (pair->kind == OnlinePair::MaxExpSum)
        onlineSoftmax(*pair, first, second, slots, slotAt);
      else
        onlineMoments(*pair, first, second, slots, slotAt);
      pairedWith = pair->second;
      continue;
    }
    if (kind == OpKind::Column) {
      if (llvm::any_of(plan.stores[i], [](bool s) { return s; }))
        overSlots(slots, {}, [&](Value s, ValueRange) {
          Slot sl = slotAt(s);
          Memo memo;
          storeColumns(i, sl, memo);
          return SmallVector<Value>();
        });
    } else if (kind == OpKind::Reduction) {
      Value identity = identityOf(i);
      auto op = cast<linalg::GenericOp>(plan.ops[i].getOperation());
      Value partial;
      if (isa<arith::AddFOp>(combinerOf(op))) {
        // A long row folds many values a thread: each slot's sum joins the
        // partial with a compensated step (utils/CompensatedSum.h).
        scf::ForOp loop = overSlots(slots, {identity, identity},
                                    [&](Value s, ValueRange acc) {
          Slot sl = slotAt(s);
          Memo memo;
          Value run = fold(i, sl, memo, identity);
          auto [sum, lost] = lowering::compensatedAdd(b, loc, acc[0], acc[1], run);
          return SmallVector<Value>{sum, lost};
        });
        partial = arith::SubFOp::create(b, loc, loop.getResult(0), loop.getResult(1));
      } else {
        partial = overSlots(slots, identity, [&](Value s, ValueRange acc) {
                    Slot sl = slotAt(s);
                    Memo memo;
                    return SmallVector<Value>{fold(i, sl, memo, acc[0])};
                  }).getResult(0);
      }
      finishReduction(i, partial, identity, shared[nextShared++]);
    } else if (kind == OpKind::RowValue) {
      rowValue(i);
    }
  }
}

Value emitRowOnChip(OpBuilder &b, StringAttr name, const RowPlan &plan, const Layout &layout,
                    const launch::LaunchTarget &target, const RowKernelTail *tail) {
  OpBuilder::InsertionGuard guard(b);
  linalg::LinalgOp first;
  for (linalg::LinalgOp op : plan.ops)
    if (isReduction(op)) {
      first = op;
      break;
    }
  Location loc = plan.ops.back().getLoc();
  RowExtent extent = rowExtentOf(b, loc, first, layout);
  const SmallVector<Value> &rowSizes = extent.rowSizes, &colSizes = extent.colSizes;
  Value rows = extent.rows, cols = extent.cols, grid = extent.grid, one = extent.one;
  // The block: from the row length, a constant where it is static (the
  // kernel then carries it as its launch bound: ptxas fits the registers).
  std::optional<std::pair<int64_t, int64_t>> bucket;
  int64_t staticThreads = 0;
  Value threads;
  if (!ShapedType::isDynamic(plan.staticCols)) {
    bucket = registerBucket(plan.staticCols, plan.vector);
    staticThreads = bucket ? bucket->first : kLoopThreads;
    threads = arith::ConstantIndexOp::create(b, loc, staticThreads);
  } else {
    // Warps for kMaxPerThread elements a thread, 1 to 8 of them.
    Value c32 = arith::ConstantIndexOp::create(b, loc, 32);
    Value perThread = arith::ConstantIndexOp::create(b, loc, kMaxPerThread);
    Value warps = arith::CeilDivUIOp::create(
        b, loc, arith::CeilDivUIOp::create(b, loc, cols, perThread), c32);
    warps = arith::MinUIOp::create(
        b, loc, arith::MaxUIOp::create(b, loc, warps, one),
        arith::ConstantIndexOp::create(b, loc, kMaxDynamicThreads / 32));
    threads = arith::MulIOp::create(b, loc, warps, c32);
  }
  // Shared memory: the target's combine buffers (32 slots, a warp's value
  // each) a reduction; none when the block is one warp (the shuffles give
  // every lane the total).
  RowLaunchStart start = startRowLaunch(b, loc, name.getValue(), plan.ops, grid, threads, rows,
                                        tail, staticThreads != 32 ? &target : nullptr);
  ::mlir::gpu::LaunchOp launch = start.launch;
  unsigned numRowShared = start.numRowShared;
  scf::IfOp hasRow = start.hasRow;
  OnChip oc(b, loc, plan, layout, target);
  oc.tid = oc.emit.tid = launch.getThreadIds().x;
  oc.blockDim = oc.emit.blockDim = launch.getBlockSize().x;
  oc.cols = oc.emit.cols = cols;
  oc.staticThreads = staticThreads;
  oc.colSizes = oc.emit.colSizes = colSizes;
  oc.emit.rowSizes = rowSizes;
  oc.emit.rowIndex = launch.getBlockIds().x;
  oc.rowIvs = delinearize(b, loc, launch.getBlockIds().x, rowSizes);
  ArrayRef<BlockArgument> attributions = launch.getWorkgroupAttributions();
  SmallVector<Value> rowShared(attributions.begin(), attributions.begin() + numRowShared);
  if (!numRowShared) // one warp: allReduce reads no slots
    rowShared.assign(llvm::count_if(plan.kinds, [](OpKind k) { return k == OpKind::Reduction; }),
                     Value());
  if (staticThreads) {
    if (bucket)
      oc.registers(bucket->second, rowShared);
    else
      oc.looped(rowShared);
  } else {
    // The run-time choice: registers when the block covers the row with
    // kMaxPerThread elements a thread (uniform in the block).
    Value covered = arith::MulIOp::create(b, loc, oc.blockDim, oc.constant(kMaxPerThread));
    auto fits = scf::IfOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, cols, covered),
        /*withElseRegion=*/true);
    b.setInsertionPointToStart(&fits.getThenRegion().front());
    oc.registers(kMaxPerThread, rowShared);
    b.setInsertionPointToStart(&fits.getElseRegion().front());
    OnChip loop(b, loc, plan, layout, target);
    loop.tid = loop.emit.tid = oc.tid;
    loop.blockDim = loop.emit.blockDim = oc.blockDim;
    loop.cols = loop.emit.cols = cols;
    loop.colSizes = loop.emit.colSizes = colSizes;
    loop.emit.rowSizes = rowSizes;
    loop.emit.rowIndex = oc.emit.rowIndex;
    loop.rowIvs = oc.rowIvs;
    loop.looped(rowShared);
  }
  if (tail) { // after the rows, in every block; the rows' stores before it
    b.setInsertionPointAfter(hasRow);
    ::mlir::gpu::BarrierOp::create(b, loc);
    tail->emit(b, launch, launch.getWorkgroupAttributions().drop_front(numRowShared));
  }
  finishLaunch(b, loc, launch);
  return rows;
}

} // namespace kfuse::gpu::rows
