//===- ScanKernels.cpp - prefix scans, a thread a line, any target --------===//
#include "passes/launch/ScanKernels.h"
#include "passes/launch/MappingUtils.h"
#include "passes/utils/CompensatedSum.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace kfuse::launch {
namespace {

/// Host blocks: a share of the lines of about this many elements, at most
/// kMaxHostBlocks of them (a GPU block is a thread per line).
constexpr int64_t kHostBlockElements = 16384, kMaxHostBlocks = 64;

/// Whether `v` is a constant 0 (integer or float, +0 or -0).
bool isZero(Value v) {
  Attribute a;
  if (!matchPattern(v, m_Constant(&a)))
    return false;
  if (auto f = dyn_cast<FloatAttr>(a))
    return f.getValue().isZero();
  if (auto i = dyn_cast<IntegerAttr>(a))
    return i.getValue().isZero();
  return false;
}

/// The value `op` stores into its result: its result on tensors, its init
/// buffer on buffers.
Value written(linalg::LinalgOp op) {
  return op->getNumResults() ? op->getResult(0) : op.getDpsInits()[0];
}

} // namespace

std::optional<unsigned> matchScan(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1)
    return std::nullopt;
  unsigned loops = op.getNumLoops(), rank = loops - 1;
  if (op.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return std::nullopt;
  MLIRContext *ctx = op.getContext();
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out != AffineMap::getMultiDimIdentityMap(loops, ctx).getMajorSubMap(rank))
    return std::nullopt;
  // acc + (j <= i ? t : 0), j the last loop, i the scanned one.
  Block &body = op.getRegion().front();
  BlockArgument acc = body.getArguments().back();
  Value yielded = body.getTerminator()->getOperand(0);
  Operation *add = yielded.getDefiningOp();
  if (!add || !isa<arith::AddFOp, arith::AddIOp>(add) || !acc.hasOneUse())
    return std::nullopt;
  Value other = add->getOperand(0) == acc ? add->getOperand(1) : add->getOperand(0);
  auto select = other.getDefiningOp<arith::SelectOp>();
  if (!select || !isZero(select.getFalseValue()))
    return std::nullopt;
  auto kept = select.getCondition().getDefiningOp<arith::CmpIOp>();
  auto j = kept ? kept.getLhs().getDefiningOp<linalg::IndexOp>() : linalg::IndexOp();
  auto i = kept ? kept.getRhs().getDefiningOp<linalg::IndexOp>() : linalg::IndexOp();
  // i only in the comparison: a term that read it would differ from one
  // output to the next (not a scan). j may be read (a fused producer's own
  // index along the scanned dim is j).
  if (!j || !i || kept.getPredicate() != arith::CmpIPredicate::ule || j.getDim() != rank ||
      i.getDim() >= rank || !i->hasOneUse())
    return std::nullopt;
  unsigned dim = i.getDim();
  // The term t is the same for every i: computed from the inputs alone (no
  // other index), which are read at j, never at i (a producer fused into
  // the scan's body reads its own inputs so).
  for (Operation &inner : body.without_terminator())
    if (isa<linalg::IndexOp>(inner) && &inner != i && &inner != j)
      return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands())
    if (op.getMatchingIndexingMap(input).isFunctionOfDim(dim))
      return std::nullopt;
  return dim;
}

bool holdsScan(ArrayRef<linalg::LinalgOp> ops) {
  return llvm::any_of(ops, [](linalg::LinalgOp op) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    return generic && matchScan(generic);
  });
}

std::optional<ScanKernel> matchScanKernel(ArrayRef<linalg::LinalgOp> ops) {
  ScanKernel kernel{};
  for (linalg::LinalgOp op : ops)
    if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
      if (std::optional<unsigned> dim = matchScan(generic)) {
        if (kernel.scan)
          return std::nullopt; // two scans
        kernel.scan = generic;
        kernel.dim = *dim;
      }
  if (!kernel.scan)
    return std::nullopt;
  // Values computed at the element a thread is at: the scan's, then each
  // epilogue op's.
  llvm::SmallPtrSet<Value, 8> atElement{written(kernel.scan)};
  bool afterScan = false;
  for (linalg::LinalgOp op : ops) {
    if (op == kernel.scan) {
      afterScan = true;
      continue;
    }
    // The accumulator's start: 0.
    if (auto fill = dyn_cast<linalg::FillOp>(op.getOperation())) {
      if (afterScan || written(fill) != kernel.scan.getDpsInits()[0] ||
          !isZero(fill.getInputs()[0]))
        return std::nullopt;
      continue;
    }
    // Elementwise ops after it (the rounding of f16 and bf16, a mask
    // builder's arithmetic): over the result's elements, reading the
    // values computed there in place, anything else at any element, and
    // not their own output.
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!afterScan || !generic || generic.getNumDpsInits() != 1 ||
        generic.getNumReductionLoops() != 0 ||
        generic.getNumLoops() != kernel.scan.getNumLoops() - 1 ||
        !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0)).isIdentity() ||
        !generic.getRegion().front().getArguments().back().use_empty())
      return std::nullopt;
    for (OpOperand *in : generic.getDpsInputOperands())
      if (atElement.contains(in->get()) && !generic.getMatchingIndexingMap(in).isIdentity())
        return std::nullopt;
    atElement.insert(written(generic));
    kernel.epilogue.push_back(generic);
  }
  return kernel;
}

SmallVector<Value> resultSizes(OpBuilder &b, Location loc, linalg::GenericOp scan) {
  SmallVector<Value> sizes;
  for (Range r : cast<linalg::LinalgOp>(scan.getOperation()).createLoopRanges(b, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
  sizes.pop_back(); // j
  return sizes;
}

LogicalResult mapScanKernel(OpBuilder &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops,
                            const LaunchTarget &target, ScanSum sum) {
  std::optional<ScanKernel> kernel = matchScanKernel(ops);
  if (!kernel)
    return ops.front()->emitError() << "kernel '" << name.getValue()
                                    << "' is not one prefix scan: the scan mapping cannot run it";
  OpBuilder::InsertionGuard guard(b);
  linalg::GenericOp scan = kernel->scan;
  Location loc = scan.getLoc();
  unsigned dim = kernel->dim, rank = scan.getNumLoops() - 1;
  auto index = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(b, loc, v); };
  SmallVector<Value> sizes = resultSizes(b, loc, scan), lineSizes;
  for (unsigned k = 0; k < rank; ++k)
    if (k != dim)
      lineSizes.push_back(sizes[k]);
  Value n = sizes[dim], one = index(1);
  Value lines = gpu::product(b, loc, lineSizes);
  Value threads = target.threadsPerBlock(b, loc, [](Value max) { return max; });
  Value grid;
  if (target.hasCooperativeThreads()) {
    grid = arith::CeilDivUIOp::create(b, loc, lines, threads);
  } else {
    Value elements = arith::MulIOp::create(b, loc, lines, n);
    grid = arith::CeilDivUIOp::create(b, loc, elements, index(kHostBlockElements));
    grid = arith::MinUIOp::create(b, loc, grid, index(kMaxHostBlocks));
    grid = arith::MinUIOp::create(b, loc, grid, lines);
  }
  grid = arith::MaxUIOp::create(b, loc, grid, one); // no launch of 0 blocks
  mlir::gpu::LaunchOp launch = gpu::buildKernelLaunch(b, loc, name.getValue(),
                                                {grid, one, one, threads, one, one});
  b.setInsertionPointToStart(&launch.getBody().front());
  Value bid = launch.getBlockIds().x, tid = launch.getThreadIds().x;
  // Block bid's lines [first, last), its threads striding over them.
  Value first = arith::DivUIOp::create(b, loc, arith::MulIOp::create(b, loc, bid, lines), grid);
  Value last = arith::DivUIOp::create(
      b, loc, arith::MulIOp::create(b, loc, arith::AddIOp::create(b, loc, bid, one), lines), grid);
  auto overLines = scf::ForOp::create(b, loc, arith::AddIOp::create(b, loc, first, tid), last,
                                      launch.getBlockSizeX());
  b.setInsertionPointToStart(overLines.getBody());
  SmallVector<Value> at = gpu::delinearize(b, loc, overLines.getInductionVar(), lineSizes);

  Value acc = scan.getDpsInits()[0];
  Type accType = cast<MemRefType>(acc.getType()).getElementType();
  bool isFloat = isa<FloatType>(accType);
  // The running sum's type: f64 where the policy widens a narrower float.
  bool widened = isFloat && sum == ScanSum::Float64 && !accType.isF64();
  Type sumType = widened ? b.getF64Type() : accType;
  bool compensated = isFloat && !widened;
  auto zeroOf = [&](Type t) -> Value {
    return isa<FloatType>(t) ? arith::ConstantOp::create(b, loc, b.getFloatAttr(t, 0.0)).getResult()
                             : arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 0)).getResult();
  };
  Value zero = zeroOf(accType);
  // Along the line: the running sum (and, compensated, its lost low part).
  SmallVector<Value> start{zeroOf(sumType)};
  if (compensated)
    start.push_back(start[0]);
  auto along = scf::ForOp::create(b, loc, index(0), n, one, start);
  b.setInsertionPointToStart(along.getBody());
  Value i = along.getInductionVar();
  SmallVector<Value> ivs;
  for (unsigned k = 0, l = 0; k < rank; ++k)
    ivs.push_back(k == dim ? i : at[l++]);
  ivs.push_back(i); // j = i: the term the body keeps last
  // The body on (inputs at j = i, 0) is the term (0 + t: t, where -0 is
  // +0 as in PyTorch's running sum from 0).
  IRMapping terms;
  Block &body = scan.getRegion().front();
  for (OpOperand *in : scan.getDpsInputOperands()) {
    Value v = in->get();
    if (isa<MemRefType>(v.getType()))
      v = memref::LoadOp::create(b, loc, v,
                                 gpu::indices(b, loc, scan.getMatchingIndexingMap(in), ivs));
    terms.map(body.getArgument(in->getOperandNumber()), v);
  }
  terms.map(body.getArguments().back(), zero);
  Value term = gpu::cloneBody(b, scan, terms, ivs)[0];
  Value value;
  SmallVector<Value> next;
  ValueRange carried = along.getRegionIterArgs();
  if (compensated) {
    auto [s, lost] = lowering::compensatedAdd(b, loc, carried[0], carried[1], term);
    next = {s, lost};
    value = arith::SubFOp::create(b, loc, s, lost);
  } else if (widened) {
    Value s = arith::AddFOp::create(b, loc, carried[0], arith::ExtFOp::create(b, loc, sumType, term));
    next = {s};
    value = arith::TruncFOp::create(b, loc, accType, s);
  } else {
    value = arith::AddIOp::create(b, loc, carried[0], term);
    next = {value};
  }
  SmallVector<Value> outAt(ivs.begin(), ivs.begin() + rank);
  memref::StoreOp::create(b, loc, value, acc, outAt);
  // The epilogue at this element: values computed here passed on, other
  // inputs loaded.
  DenseMap<Value, Value> here{{acc, value}};
  for (linalg::GenericOp op : kernel->epilogue) {
    IRMapping args;
    Block &opBody = op.getRegion().front();
    for (OpOperand *in : op.getDpsInputOperands()) {
      Value v = here.lookup(in->get());
      if (!v)
        v = isa<MemRefType>(in->get().getType())
                ? memref::LoadOp::create(b, loc, in->get(),
                                         gpu::indices(b, loc, op.getMatchingIndexingMap(in), outAt))
                      .getResult()
                : in->get();
      args.map(opBody.getArgument(in->getOperandNumber()), v);
    }
    Value result = gpu::cloneBody(b, op, args, outAt)[0];
    memref::StoreOp::create(b, loc, result, op.getDpsInits()[0], outAt);
    here[op.getDpsInits()[0]] = result;
  }
  scf::YieldOp::create(b, loc, next);
  b.setInsertionPointAfter(overLines);
  gpu::finishLaunch(b, loc, launch);
  return success();
}

} // namespace kfuse::launch
