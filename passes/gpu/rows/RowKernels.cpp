//===- RowKernels.cpp - reduction kernels, one block per row --------------===//
//
// Upstream can tile a linalg reduction onto blocks and threads, but it maps
// one op at a time: the kernels kfuse forms (softmax: max, exp, sum, div
// over the same rows) must stay one launch, each row's reductions visible
// to the ops after them. So this mapping is written directly: a block per
// row. On the GPU the row stays on chip (RowOnChip.h: registers, or passes
// that recompute from the inputs; variant on_chip); the form here, each op
// in program order with a barrier after it and intermediates through
// global memory (variant through_memory), serves the host runtime (one
// thread a block) and kernels whose ops read each other in a way the
// on-chip form does not follow. kf-assign-kernel-mappings chooses between
// them, on tensors (chooseRowVariant).
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/rows/RowKernels.h"

#include "passes/gpu/rows/RowEmitter.h"
#include "passes/gpu/rows/RowOnChip.h"
#include "passes/analysis/SymbolicShapes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace kfuse::gpu {

using namespace rows;

namespace {

/// The combining op of a reduction's body (`out = combine(out, x)`), or
/// null when the body is not of that form.
Operation *combiner(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (yield.getNumOperands() != 1)
    return nullptr;
  Operation *def = yield.getOperand(0).getDefiningOp();
  BlockArgument out = body.getArguments().back();
  if (!def || def->getNumOperands() != 2 || def->getNumResults() != 1 ||
      !out.hasOneUse() || (def->getOperand(0) != out && def->getOperand(1) != out) ||
      !isa<arith::AddFOp, arith::AddIOp, arith::MaximumFOp, arith::MinimumFOp,
           arith::MaxSIOp, arith::MinSIOp, arith::MulFOp, arith::MulIOp,
           arith::MaxNumFOp, arith::MinNumFOp, arith::OrIOp, arith::AndIOp>(def))
    return nullptr;
  return def;
}

/// Whether `value` is the identity of `combine` (combining it changes
/// nothing), so that every thread may start from it.
bool isIdentity(Operation *combine, arith::ConstantOp value) {
  Attribute a = value.getValue();
  if (auto f = dyn_cast<FloatAttr>(a)) {
    APFloat v = f.getValue();
    if (isa<arith::AddFOp>(combine))
      return v.isZero();
    if (isa<arith::MulFOp>(combine))
      return v.isExactlyValue(1.0);
    if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combine))
      return v.isInfinity() && v.isNegative();
    if (isa<arith::MinimumFOp, arith::MinNumFOp>(combine))
      return v.isInfinity() && !v.isNegative();
  }
  if (auto i = dyn_cast<IntegerAttr>(a)) {
    APInt v = i.getValue();
    if (isa<arith::AddIOp>(combine))
      return v.isZero();
    if (isa<arith::MulIOp>(combine))
      return v.isOne();
    if (isa<arith::MaxSIOp>(combine))
      return v.isMinSignedValue();
    if (isa<arith::MinSIOp>(combine))
      return v.isMaxSignedValue();
    if (isa<arith::OrIOp>(combine)) // any (bool max)
      return v.isZero();
    if (isa<arith::AndIOp>(combine)) // all (bool min)
      return v.isAllOnes();
  }
  return false;
}

/// Whether `map` reads only row loops (a value of the row, whatever the
/// column).
bool readsRowOnly(AffineMap map, ArrayRef<bool> isRowDim) {
  for (AffineExpr e : map.getResults()) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d || !isRowDim[d.getPosition()])
      return false;
  }
  return true;
}


/// The size of each loop of `op` (on tensors) as a polynomial in the
/// function's dynamic sizes: the size of the first operand dim it indexes.
SmallVector<analysis::Poly> loopSizes(linalg::LinalgOp op, analysis::SymbolicShapes &shapes) {
  SmallVector<analysis::Poly> sizes(op.getNumLoops(), analysis::Poly::constant(0));
  SmallVector<bool> found(op.getNumLoops(), false);
  for (OpOperand &operand : op->getOpOperands())
    for (auto [i, e] : llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults()))
      if (auto d = dyn_cast<AffineDimExpr>(e); d && !found[d.getPosition()]) {
        sizes[d.getPosition()] = shapes.dim(operand.get(), i);
        found[d.getPosition()] = true;
      }
  return sizes;
}

/// Whether `op` reads `map` at row loops in order and unit dims only (0,
/// or a loop of size 1): a row value read through a reshape that gave it
/// unit dims. `rowOp`: every loop of `op` is a row loop.
bool readsRowOrUnit(linalg::GenericOp op, AffineMap map, ArrayRef<bool> isRowDim, bool rowOp) {
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  unsigned next = 0;
  for (AffineExpr e : map.getResults()) {
    if (auto c = dyn_cast<AffineConstantExpr>(e); c && c.getValue() == 0)
      continue;
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d)
      return false;
    unsigned pos = d.getPosition();
    if (sizes[pos] == 1)
      continue;
    if (!(rowOp || isRowDim[pos]) || pos < next)
      return false;
    next = pos + 1;
  }
  return true;
}

/// Whether `ops` (on tensors) form a row kernel; `refuse` says why not.
LogicalResult analyze(ArrayRef<linalg::LinalgOp> ops,
                      function_ref<InFlightDiagnostic()> refuse, Layout &layout) {
  linalg::LinalgOp first;
  layout = layoutOf(ops, first);
  if (!first)
    return refuse() << "it has no reduction";
  SmallVector<int64_t> rowSizes;
  for (auto [i, s] : llvm::enumerate(layout.sizes))
    if (layout.isRowDim[i])
      rowSizes.push_back(s);
  // A dynamic size matches only a dynamic one: kf asserts at run time that
  // the dynamic dims an op combines are equal, but a dynamic dim against a
  // static one may be anything (a [3, ?, 2] division after a reduction over
  // [3, 1, 2] is no op over the reduction's rows; found by kf_fuzz.py).
  // Canonicalization on buffers may make some of those equal dims static
  // later; the decision made here stands.
  // Two dynamic sizes match only as the same polynomial in the function's
  // dynamic sizes (analysis::SymbolicShapes): a `?` a reshape made (the
  // 3 * d0 elements of a ?x3 tensor collapsed into one dim) is not the d0
  // rows, though both are `?`; the emitter took that op for one over the
  // rows and wrote d0 of its 3 * d0 elements (found by kf_fuzz.py, seed 1).
  // On buffers (the emitters' second look) the static sizes decide.
  std::optional<analysis::SymbolicShapes> shapes;
  auto func = first->getParentOfType<func::FuncOp>();
  if (func && first.hasPureTensorSemantics())
    shapes.emplace(func);
  SmallVector<analysis::Poly> firstSizes, firstRows;
  if (shapes) {
    firstSizes = loopSizes(first, *shapes);
    for (auto [i, p] : llvm::enumerate(firstSizes))
      if (layout.isRowDim[i])
        firstRows.push_back(p);
  }
  auto sameLoops = [&](linalg::GenericOp op, ArrayRef<int64_t> sizes,
                       ArrayRef<analysis::Poly> symbolic) {
    if (op.getStaticLoopRanges() != sizes)
      return false;
    return !shapes || loopSizes(op, *shapes) == SmallVector<analysis::Poly>(symbolic);
  };
  // Values the kernel's own ops write, with the map they were written
  // through: read back only at the same element or as a row value.
  llvm::DenseMap<Value, AffineMap> written;
  llvm::DenseMap<Value, unsigned> writerLoops;
  for (linalg::LinalgOp op : ops) {
    if (auto fill = dyn_cast<linalg::FillOp>(op.getOperation())) {
      bool initOfReduction = llvm::any_of(ops, [&](linalg::LinalgOp r) {
        return isReduction(r) && r.getDpsInits()[0] == filledBuffer(fill);
      });
      if (!initOfReduction)
        return refuse() << "a fill does not start a reduction";
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic)
      return refuse() << "it holds a " << op->getName().getStringRef();
    unsigned loops = generic.getNumLoops();
    bool rowOp = !isReduction(op) && layout.isRowOp(generic);
    bool fullRank = loops == layout.isRowDim.size() && !rowOp;
    if (isReduction(op)) {
      if (generic.getIteratorTypesArray() != first.getIteratorTypesArray() ||
          !sameLoops(generic, layout.sizes, firstSizes))
        return refuse() << "its reductions are over different rows";
      if (generic.getNumDpsInits() != 1)
        return refuse() << "a reduction has several results";
      Operation *combine = combiner(generic);
      arith::ConstantOp init = initialValue(generic, ops);
      if (!combine || !init || !isIdentity(combine, init))
        return refuse() << "a reduction is not a combination from its identity";
      if (!readsRowOnly(generic.getMatchingIndexingMap(generic.getDpsInitOperand(0)),
                        layout.isRowDim))
        return refuse() << "a reduction's result is not indexed by its rows";
    } else if (fullRank) {
      if (!sameLoops(generic, layout.sizes, firstSizes))
        return refuse() << "its ops iterate over different shapes";
    } else if (!rowOp) {
      return refuse() << "an op is neither over the rows nor over rows and columns";
    } else if (loops == layout.rows && !sameLoops(generic, rowSizes, firstRows)) {
      return refuse() << "its ops iterate over different rows";
    }
    // An op over the rows, or rows x columns, may write them in another
    // order (x.sum(2).t().exp(), x.softmax(1).t().contiguous():
    // readRowValuesInRowOrder).
    for (OpOperand &init : generic.getDpsInitsMutable())
      if (!isReduction(op) && !generic.getMatchingIndexingMap(&init).isIdentity() &&
          !((rowOp || fullRank) && generic.getMatchingIndexingMap(&init).isPermutation()))
        return refuse() << "a result is not written in iteration order";
    for (OpOperand *input : generic.getDpsInputOperands()) {
      // A value of the kernel may be read through reshapes (a row value
      // given unit dims, [r] -> [r, 1]): the read is then followed only if
      // it indexes the row loops and unit dims (0), as a keepdim row value
      // is read. Read at a column loop ((d1, 0) of a [3] row value in a
      // [3, 3, 3] kernel, a batch_norm's parameter after a layer_norm), it
      // is another row's value (found by kf_fuzz.py, seed 705).
      Value read = input->get();
      bool reshaped = false;
      while (!written.count(read)) {
        if (auto expand = read.getDefiningOp<tensor::ExpandShapeOp>())
          read = expand.getSrc();
        else if (auto collapse = read.getDefiningOp<tensor::CollapseShapeOp>())
          read = collapse.getSrc();
        else
          break;
        reshaped = true;
      }
      auto w = written.find(read);
      if (w == written.end())
        continue;
      AffineMap map = generic.getMatchingIndexingMap(input);
      // Written through a permutation: read at the element written, by an
      // op over the same loops.
      bool permuted = w->second.isPermutation() && !w->second.isIdentity();
      if (permuted ? reshaped || map != w->second || writerLoops.lookup(read) != loops
          : reshaped ? !readsRowOrUnit(generic, map, layout.isRowDim, rowOp)
                     : !map.isIdentity() && !(fullRank && readsRowOnly(map, layout.isRowDim)))
        return refuse() << "an op reads another's result at another row";
    }
    for (OpOperand &init : generic.getDpsInitsMutable()) {
      AffineMap map = generic.getMatchingIndexingMap(&init);
      Value result = generic->getResult(init.getOperandNumber() - generic.getNumDpsInputs());
      for (Value v : {init.get(), result}) {
        written[v] = map;
        writerLoops[v] = loops;
      }
    }
  }
  return success();
}

} // namespace

/// The initial value of a reduction: the constant of the fill, in the
/// kernel, that writes its init.
arith::ConstantOp rows::initialValue(linalg::GenericOp op, ArrayRef<linalg::LinalgOp> ops) {
  Value init = op.getDpsInits()[0];
  for (linalg::LinalgOp other : ops)
    if (auto fill = dyn_cast<linalg::FillOp>(other.getOperation()))
      if (filledBuffer(fill) == init)
        return fill.getInputs()[0].getDefiningOp<arith::ConstantOp>();
  return nullptr;
}

Operation *combinerOf(linalg::GenericOp op) { return combiner(op); }
bool rows::isIdentityOf(Operation *combine, arith::ConstantOp v) { return isIdentity(combine, v); }

FailureOr<RowLaunch> checkRowKernel(ArrayRef<linalg::LinalgOp> ops,
                                    function_ref<InFlightDiagnostic()> refuse) {
  Layout layout;
  if (std::optional<ChainSplit> chain = splitRowChain(ops)) {
    if (failed(analyze(chain->rowOps, refuse, layout)))
      return failure();
    if (failed(checkFinalPart(*chain, layout, refuse)))
      return failure();
    return RowLaunch::RowChain;
  }
  if (failed(analyze(ops, refuse, layout)))
    return failure();
  return gridReductionOf(ops, layout) ? RowLaunch::GridReduction : RowLaunch::BlockPerRow;
}

kf::KernelVariant chooseRowVariant(ArrayRef<linalg::LinalgOp> ops) {
  std::optional<ChainSplit> chain = splitRowChain(ops);
  ArrayRef<linalg::LinalgOp> rowOps = chain ? ArrayRef(chain->rowOps) : ops;
  linalg::LinalgOp first;
  Layout layout = layoutOf(rowOps, first);
  return followsOnChip(rowOps, layout) ? kf::KernelVariant::OnChip
                                       : kf::KernelVariant::ThroughMemory;
}

void mapGridReductionKernel(OpBuilder &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops,
                            const launch::LaunchTarget &target, FlatSymbolRefAttr ticket) {
  linalg::LinalgOp first;
  Layout layout = layoutOf(ops, first);
  // Canonicalization on buffers may have made a dim static that the
  // decision saw dynamic; one block then serves the (one) row as well, in
  // the form that needs no plan (no variant was chosen for it).
  if (linalg::GenericOp reduction = gridReductionOf(ops, layout))
    return mapGridReduction(b, name, ops, reduction, layout, target, ticket);
  (void)mapRowKernel(b, name, ops, target, kf::KernelVariant::ThroughMemory);
}

FailureOr<Value> mapRowKernel(OpBuilder &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops,
                              const launch::LaunchTarget &target, kf::KernelVariant variant,
                              const RowKernelTail *tail) {
  OpBuilder::InsertionGuard guard(b);
  linalg::LinalgOp first, last = ops.back();
  Layout layout = layoutOf(ops, first);
  Location loc = last.getLoc();
  // On chip (RowOnChip.h), as chosen on tensors; followsOnChip gave each
  // value a buffer of its own, so the plan follows them on buffers too.
  if (variant == kf::KernelVariant::OnChip) {
    FailureOr<RowPlan> plan = planRowKernel(ops, layout);
    if (failed(plan) || !target.hasCooperativeThreads())
      return emitError(loc, "kernel '")
             << name.getValue() << "' (variant on_chip): "
             << (failed(plan) ? "its buffers alias in a way the on-chip form does not follow"
                              : "the target's threads do not cooperate");
    return emitRowOnChip(b, name, *plan, layout, target, tail);
  }
  assert(variant == kf::KernelVariant::ThroughMemory && "a row kernel's variant");
  // Through memory: each op's values through global memory, a barrier
  // after each op.

  // Rows, columns and the launch: a block per row; a warp for short rows
  // (threads = the columns rounded up to 32, at most block-size).
  RowExtent extent = rowExtentOf(b, loc, first, layout);
  const SmallVector<Value> &rowSizes = extent.rowSizes, &colSizes = extent.colSizes;
  Value rows = extent.rows, cols = extent.cols, grid = extent.grid, one = extent.one;
  Value threads = target.threadsPerBlock(b, loc, [&](Value max) -> Value {
    Value c32 = arith::ConstantIndexOp::create(b, loc, 32);
    Value warps = arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, cols, c32), one);
    return arith::MinUIOp::create(b, loc, arith::MulIOp::create(b, loc, warps, c32), max);
  });
  // Workgroup memory: each reduction's combine buffers.
  RowLaunchStart start =
      startRowLaunch(b, loc, name.getValue(), ops, grid, threads, rows, tail, &target);
  ::mlir::gpu::LaunchOp launch = start.launch;
  unsigned numRowShared = start.numRowShared;
  scf::IfOp hasRow = start.hasRow;
  RowEmitter emit(b, loc, layout, target);
  emit.tid = launch.getThreadIds().x;
  emit.blockDim = launch.getBlockSize().x;
  emit.colStart = emit.tid;
  emit.colStep = emit.blockDim;
  emit.rowIndex = launch.getBlockIds().x;
  emit.rowSizes = rowSizes;
  emit.colSizes = colSizes;
  emit.cols = cols;
  ValueRange scratch = launch.getWorkgroupAttributions().take_front(numRowShared);
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic)
      continue; // fills: every thread starts its reduction from the value
    if (isReduction(op)) {
      arith::ConstantOp init = initialValue(generic, ops);
      Value identity = arith::ConstantOp::create(b, loc, init.getValue());
      size_t n = target.combineScratch(b.getContext(), identity.getType()).size();
      emit.reduction(generic, identity, scratch.take_front(n));
      scratch = scratch.drop_front(n);
    } else if (layout.isRowOp(generic)) {
      emit.overRow(generic);
    } else {
      emit.overColumns(generic);
    }
    target.barrier(b, loc); // what one thread wrote, the next op's threads may read
  }
  if (tail) { // after the rows, in every block, rows or not
    b.setInsertionPointAfter(hasRow);
    tail->emit(b, launch, launch.getWorkgroupAttributions().drop_front(numRowShared));
  }
  finishLaunch(b, loc, launch);
  return rows;
}

/// The layout of a row kernel, read from its first reduction (checked on
/// tensors by analyze; on buffers the mapping trusts that decision).
Layout rows::layoutOf(ArrayRef<linalg::LinalgOp> ops, linalg::LinalgOp &first) {
  Layout layout;
  first = nullptr;
  for (linalg::LinalgOp op : ops)
    if (isReduction(op)) {
      first = op;
      break;
    }
  if (!first)
    return layout;
  for (utils::IteratorType t : first.getIteratorTypesArray())
    layout.isRowDim.push_back(t == utils::IteratorType::parallel);
  layout.sizes = first.getStaticLoopRanges();
  layout.rows = first.getNumParallelLoops();
  layout.cols = first.getNumReductionLoops();
  return layout;
}

} // namespace kfuse::gpu
