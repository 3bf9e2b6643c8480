//===- PointwiseKernels.cpp - pointwise kernels as flat gpu.launch -------===//
//
// The flat mapping: the kernel's iteration space flattened, `lanes`
// consecutive elements a thread, vector accesses where every access is
// contiguous. A small static reduction (at most kMaxUnrolledReduction
// elements folded into each result, `((a[:, None] - b[None]) ** 2).sum(-1)`
// over a last dim of 4) is elementwise code too: its thread folds its
// element's terms unrolled, in the CPU loop's order. Also the serial launch
// (host runtime only) of a kernel no mapping serves.
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/flat/PointwiseKernels.h"
#include "passes/gpu/flat/PointwiseBody.h"
#include "passes/gpu/flat/TransposeKernels.h"
#include "passes/launch/MappingUtils.h"
#include "passes/analysis/Views.h"
#include "passes/utils/CompensatedSum.h"
#include "dialect/Kf/KfOps.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace kfuse::gpu {

namespace {

/// Whether the flat mapping can unroll the reduction `op`, or a refusal: a
/// dynamic reduced size, more than kMaxUnrolledReduction elements in all,
/// or results not indexed by the parallel loops in order (the flat index is
/// the result's).
LogicalResult checkSmallReduction(linalg::GenericOp op,
                                  function_ref<InFlightDiagnostic()> refuse) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<AffineExpr> parallel;
  int64_t elements = 1;
  for (auto [d, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (iterator == utils::IteratorType::parallel) {
      parallel.push_back(getAffineDimExpr(d, op.getContext()));
      continue;
    }
    if (ShapedType::isDynamic(ranges[d]))
      return refuse() << "a reduction over a dynamic size is not unrolled";
    elements *= ranges[d];
  }
  if (elements > kMaxUnrolledReduction)
    return refuse() << "a reduction over " << elements
                    << " elements (the flat mapping unrolls at most "
                    << kMaxUnrolledReduction << ")";
  AffineMap results = AffineMap::get(op.getNumLoops(), 0, parallel, op.getContext());
  for (OpOperand &init : op.getDpsInitsMutable())
    if (op.getMatchingIndexingMap(&init) != results)
      return refuse() << "a reduction's result is not indexed by its parallel loops in order";
  return success();
}

/// Whether two result shapes have their elements in the same order: equal
/// but for unit dims, or static with as many elements (a reshape of
/// contiguous data keeps each element's linear index, and the flat
/// mapping's thread computes one linear index in every op).
bool sameElements(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  if (analysis::nonUnitDims(a) == analysis::nonUnitDims(b))
    return true;
  if (ShapedType::isDynamicShape(a) || ShapedType::isDynamicShape(b))
    return false;
  return ShapedType::getNumElements(a) == ShapedType::getNumElements(b);
}

/// The parallel loop ranges every op of the kernel shares (the same
/// shape, so the same loop indices), when there are at least two: a thread
/// can then walk a run of consecutive elements by incrementing its loop
/// indices. Ops of one dynamic shape count only when alone (two dynamic
/// shapes of one pattern may be reshapes of each other).
std::optional<SmallVector<int64_t>> sharedParallelShape(ArrayRef<linalg::GenericOp> ops) {
  std::optional<SmallVector<int64_t>> shape;
  for (linalg::GenericOp op : ops) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges(), parallel;
    for (auto [r, it] : llvm::zip(ranges, op.getIteratorTypesArray()))
      if (it == utils::IteratorType::parallel)
        parallel.push_back(r);
    if (shape && *shape != parallel)
      return std::nullopt;
    shape = parallel;
  }
  if (!shape || shape->size() < 2 ||
      (ops.size() > 1 && ShapedType::isDynamicShape(*shape)))
    return std::nullopt;
  return shape;
}

/// The loop indices of the element `step` (given as its own indices, each
/// below its size) after the one at `ivs`, row-major over `sizes`: a digit
/// by digit add with carry, the carry taken back by one subtraction (both
/// digits are below the size). An add, a compare and a select or two per
/// dim, instead of a division and a remainder per dim.
SmallVector<Value> advance(OpBuilder &b, Location loc, ArrayRef<Value> ivs,
                           ArrayRef<Value> step, ArrayRef<Value> sizes) {
  SmallVector<Value> next(ivs);
  Value carry; // 0 or 1 into dim d (null: d is the last)
  for (int64_t d = (int64_t)ivs.size() - 1; d >= 0; --d) {
    Value sum = arith::AddIOp::create(b, loc, ivs[d], step[d]);
    if (carry)
      sum = arith::AddIOp::create(b, loc, sum, carry);
    if (d == 0) { // the first index is not wrapped: past the end is masked
      next[d] = sum;
      break;
    }
    Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, sum, sizes[d]);
    next[d] = arith::SelectOp::create(b, loc, wraps,
                                      arith::SubIOp::create(b, loc, sum, sizes[d]), sum);
    carry = arith::IndexCastUIOp::create(
        b, loc, b.getIndexType(),
        arith::ExtUIOp::create(b, loc, b.getI64Type(), wraps));
  }
  return next;
}

} // namespace

// One thread runs the ops one after the other for its element, so they must
// share an iteration space (the results') and read each other's results
// only there. A small reduction's accumulator fill is an op over its result.
LogicalResult checkFlatKernel(kfuse::kf::KernelOp kernel,
                              ArrayRef<linalg::LinalgOp> ops,
                              function_ref<InFlightDiagnostic()> refuse) {
  if (ops.empty())
    return refuse() << "it holds no linalg op";
  ArrayRef<int64_t> shape;
  bool first = true;
  for (linalg::LinalgOp op : ops) {
    if (isa<linalg::FillOp>(op.getOperation())) {
      auto type = cast<RankedTensorType>(op.getDpsInits()[0].getType());
      if (!first && !sameElements(shape, type.getShape()))
        return refuse() << "its ops iterate over different shapes";
      shape = type.getShape();
      first = false;
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic)
      return refuse() << "it holds a " << op->getName().getStringRef();
    if (generic.getNumReductionLoops() != 0) {
      if (failed(checkSmallReduction(generic, refuse)))
        return failure();
      // Each thread starts from its accumulator's value, which a fill in
      // the kernel gives (a value from outside is no reduction's identity).
      for (Value init : generic.getDpsInits()) {
        auto fill = init.getDefiningOp<linalg::FillOp>();
        if (!fill || fill->getParentOp() != kernel)
          return refuse() << "a reduction does not start from a fill in the kernel";
      }
    }
    for (OpOperand &init : generic.getDpsInitsMutable()) {
      auto type = cast<RankedTensorType>(init.get().getType());
      if (generic.getNumReductionLoops() == 0 &&
          !generic.getMatchingIndexingMap(&init).isIdentity())
        return refuse() << "a result is not written in iteration order";
      if (!first && !sameElements(shape, type.getShape()))
        return refuse() << "its ops iterate over different shapes";
      shape = type.getShape();
      first = false;
    }
    for (OpOperand *input : generic.getDpsInputOperands()) {
      Operation *def = input->get().getDefiningOp();
      if (def && def->getParentOp() == kernel && isa<linalg::LinalgOp>(def) &&
          !generic.getMatchingIndexingMap(input).isIdentity())
        return refuse() << "an op reads another's result at other elements";
    }
  }
  return success();
}

} // namespace kfuse::gpu

namespace {
/// Maps the generics of one kernel (in program order, one iteration space,
/// checked by kf-assign-kernel-mappings) to one launch. Each thread computes
/// `lanes` consecutive elements: with vector loads and stores when it has
/// all of them and every access is contiguous, else element by element up
/// to the end (the masked tail). Values one op stores and the next reads at
/// the same element pass in registers.
} // namespace

LogicalResult kfuse::gpu::mapPointwiseKernel(OpBuilder &b, StringAttr name,
                                             ArrayRef<linalg::GenericOp> ops,
                                             unsigned blockSize, unsigned vectorWidth) {
  linalg::GenericOp first = ops.front();
  for (linalg::GenericOp op : ops)
    if (!op.hasPureBufferSemantics())
      return op.emitError("kf-map-kernels-to-gpu: kernel '")
             << name.getValue() << "' is not a bufferized pointwise op";
  if (isTiledTranspose(ops)) {
    mapTransposeKernel(b, name, ops);
    return success();
  }
  OpBuilder::InsertionGuard guard(b);
  Location loc = first.getLoc();
  unsigned lanes = vectorWidth > 1 && isVectorizable(ops) ? vectorWidth : 1;
  // Broadcasts and views of rank >= 2 (no vector accesses): a thread walks
  // a run of `run` consecutive elements, its loop indices delinearized once
  // (a division and a remainder per dim, for the run) and then incremented
  // (compares and selects), not delinearized per element.
  // Ops of one shape share their indices; ops reshaped from one another
  // each walk their own.
  bool runs = lanes == 1 && llvm::any_of(ops, [](linalg::GenericOp op) {
                return op.getNumParallelLoops() >= 2;
              });
  unsigned run = runs ? std::max(vectorWidth, 1u) : 1;
  bool shared = sharedParallelShape(ops).has_value();

  // Each op's result sizes (the parallel loops: a small reduction's
  // reduced loops are each thread's; ops reshaped from one another have as
  // many elements), their product n, and the grid: ceil(n / (block *
  // lanes)).
  std::vector<SmallVector<Value>> opSizes = parallelSizes(b, loc, ops);
  ArrayRef<Value> sizes = opSizes.back();
  Value n = arith::ConstantIndexOp::create(b, loc, 1);
  for (Value s : sizes)
    n = arith::MulIOp::create(b, loc, n, s);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value block = arith::ConstantIndexOp::create(b, loc, blockSize);
  Value width = arith::ConstantIndexOp::create(b, loc, lanes * run);
  Value perBlock = arith::MulIOp::create(b, loc, block, width);
  Value grid = arith::MaxUIOp::create(
      b, loc, arith::CeilDivUIOp::create(b, loc, n, perBlock), one);
  // Contiguous buffers are read through 1-D views of the same memory.
  llvm::DenseMap<Value, Value> flat;
  if (lanes > 1)
    flat = flatViews(b, loc, ops);
  // A run's step (the block size) as indices over each op's sizes, on the
  // host: one division per dim a launch, not a thread.
  auto runSizes = [&](size_t k) {
    return shared ? sizes : ArrayRef<Value>(opSizes[k]);
  };
  std::vector<SmallVector<Value>> steps;
  if (run > 1)
    for (size_t k = 0; k < (shared ? 1 : ops.size()); ++k)
      steps.push_back(delinearize(b, loc, block, runSizes(k)));
  auto launch =
      buildKernelLaunch(b, loc, name.getValue(), {grid, one, one, block, one, one});

  b.setInsertionPointToStart(&launch.getBody().front());
  Value thread = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, launch.getBlockIds().x, block),
      launch.getThreadIds().x);
  Value i0 = arith::MulIOp::create(b, loc, thread, width);
  PointwiseBody body(ops, opSizes);
  if (run > 1) {
    // Element j of the thread is base + j * block (the block's threads
    // read consecutive elements: coalesced): its indices are the previous
    // ones advanced by the block size's, computed once on the host (a
    // launch parameter) for each op's sizes.
    Value base = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, launch.getBlockIds().x, perBlock),
        launch.getThreadIds().x);
    std::vector<SmallVector<Value>> ivs;
    for (size_t k = 0; k < steps.size(); ++k)
      ivs.push_back(delinearize(b, loc, base, runSizes(k)));
    // Unrolled here, each element under its own bound check.
    for (unsigned j = 0; j < run; ++j) {
      if (j > 0)
        for (auto [k, opIvs] : llvm::enumerate(ivs))
          opIvs = advance(b, loc, opIvs, steps[k], runSizes(k));
      Value at = arith::AddIOp::create(
          b, loc, base, arith::ConstantIndexOp::create(b, loc, j * blockSize));
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, at, n);
      auto element = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard inElement(b);
      b.setInsertionPointToStart(&element.getThenRegion().front());
      if (shared)
        body.scalarAt(b, loc, ivs.front());
      else
        body.scalarAtEach(b, loc, ivs);
    }
  } else if (lanes == 1) {
    Value inBounds =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, i0, n);
    auto guard = scf::IfOp::create(b, loc, inBounds, /*withElseRegion=*/false);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    body.scalar(b, loc, i0);
  } else {
    Value end = arith::AddIOp::create(b, loc, i0, width);
    Value whole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end, n);
    auto guard = scf::IfOp::create(b, loc, whole, /*withElseRegion=*/true);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    body.vector(b, loc, i0, lanes, flat);
    // The tail: the elements left past the last whole vector, one by one.
    b.setInsertionPointToStart(&guard.getElseRegion().front());
    Value stop = arith::MinUIOp::create(b, loc, end, n);
    auto loop = scf::ForOp::create(b, loc, i0, stop, one);
    b.setInsertionPointToStart(loop.getBody());
    body.scalar(b, loc, loop.getInductionVar());
  }
  b.setInsertionPointToEnd(&launch.getBody().front());
  mlir::gpu::TerminatorOp::create(b, loc);
  return success();
}
