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
#include "passes/gpu/PointwiseKernels.h"
#include "passes/gpu/MappingUtils.h"
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
using kfuse::gpu::cloneBody;
using kfuse::gpu::delinearize;
using kfuse::gpu::indices;

/// The ops of one kernel, emitted for one thread's elements.
class KernelBody {
public:
  /// `sizes[k]`: the result sizes of ops[k] (its parallel loops): ops
  /// reshaped from one another share the linear index, not the indices.
  KernelBody(ArrayRef<linalg::GenericOp> ops, ArrayRef<SmallVector<Value>> sizes)
      : ops(ops), opSizes(sizes) {}

  /// Computes the element at flat index `i`: loop indices by delinearizing
  /// over `sizes`; operands read through the ops' indexing maps.
  void scalar(OpBuilder &b, Location loc, Value i) {
    SmallVector<Value> ivs;
    ArrayRef<Value> ivSizes;
    llvm::DenseMap<Value, Value> stored; // buffer -> this element's value
    for (auto [k, constOp] : llvm::enumerate(ops)) {
      linalg::GenericOp op = constOp;
      if (ivs.empty() || ArrayRef<Value>(opSizes[k]) != ivSizes) {
        ivSizes = opSizes[k];
        ivs = delinearize(b, loc, i, ivSizes);
      }
      if (op.getNumReductionLoops()) {
        smallReduction(b, loc, op, ivs, stored);
        continue;
      }
      IRMapping mapping;
      Block &body = op.getRegion().front();
      for (OpOperand &operand : op->getOpOperands()) {
        BlockArgument arg = body.getArgument(operand.getOperandNumber());
        if (arg.use_empty())
          continue; // an init that the body never reads
        AffineMap map = op.getMatchingIndexingMap(&operand);
        if (auto it = stored.find(operand.get());
            map.isIdentity() && it != stored.end()) {
          mapping.map(arg, it->second);
          continue;
        }
        mapping.map(arg, memref::LoadOp::create(b, loc, operand.get(),
                                                indices(b, loc, map, ivs)));
      }
      SmallVector<Value> results = cloneBody(b, op, mapping, ivs);
      for (auto [v, init] : llvm::zip(results, op.getDpsInitsMutable())) {
        memref::StoreOp::create(
            b, loc, v, init.get(),
            indices(b, loc, op.getMatchingIndexingMap(&init), ivs));
        stored[init.get()] = v;
      }
    }
  }

  /// Computes `lanes` consecutive elements from flat index `i0` with one
  /// vector load or store per operand (every map is the identity, and
  /// `flat` holds 1-D views of the buffers).
  void vector(OpBuilder &b, Location loc, Value i0, unsigned lanes,
              const llvm::DenseMap<Value, Value> &flat) {
    llvm::DenseMap<Value, SmallVector<Value>> stored;
    for (linalg::GenericOp op : ops) {
      Block &body = op.getRegion().front();
      SmallVector<IRMapping> mappings(lanes);
      for (OpOperand &operand : op->getOpOperands()) {
        BlockArgument arg = body.getArgument(operand.getOperandNumber());
        if (arg.use_empty())
          continue;
        SmallVector<Value> values;
        if (auto it = stored.find(operand.get()); it != stored.end()) {
          values = it->second;
        } else {
          Value v = vector::LoadOp::create(b, loc, vectorType(arg.getType(), lanes),
                                           flat.lookup(operand.get()), i0);
          v.getDefiningOp()->setAttr("alignment", alignment(b, arg.getType(), lanes));
          for (unsigned k = 0; k < lanes; ++k)
            values.push_back(vector::ExtractOp::create(b, loc, v, k));
        }
        for (unsigned k = 0; k < lanes; ++k)
          mappings[k].map(arg, values[k]);
      }
      SmallVector<SmallVector<Value>> laneResults;
      for (unsigned k = 0; k < lanes; ++k) {
        // Lane k's loop indices are only needed by linalg.index ops.
        laneResults.push_back(cloneBody(b, op, mappings[k], {}));
      }
      for (auto [r, init] : llvm::enumerate(op.getDpsInitsMutable())) {
        SmallVector<Value> values;
        for (unsigned k = 0; k < lanes; ++k)
          values.push_back(laneResults[k][r]);
        Value v = vector::FromElementsOp::create(
            b, loc, vectorType(values.front().getType(), lanes), values);
        auto store = vector::StoreOp::create(b, loc, v, flat.lookup(init.get()), i0);
        store->setAttr("alignment", alignment(b, values.front().getType(), lanes));
        stored[init.get()] = values;
      }
    }
  }

private:
  ArrayRef<linalg::GenericOp> ops;
  ArrayRef<SmallVector<Value>> opSizes;

  /// Folds the terms of this thread's element of a small static reduction
  /// (checked by checkFlatKernel), unrolled in the order of the CPU's loop
  /// nest (loop order, the last reduction loop fastest), from the value its
  /// fill stored (or the buffer's). A float sum takes the compensated step
  /// the CPU lowering gives it (kf-compensated-sums): f32 sums are
  /// bit-equal to the CPU pipeline's.
  void smallReduction(OpBuilder &b, Location loc, linalg::GenericOp op,
                      ArrayRef<Value> resultIvs,
                      llvm::DenseMap<Value, Value> &stored) {
    Block &body = op.getRegion().front();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    SmallVector<unsigned> reduced;
    op.getReductionDims(reduced);
    // Loop indices: the parallel loops are the result's indices, in order.
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    SmallVector<Value> ivs(op.getNumLoops(), zero);
    for (unsigned d = 0, r = 0; d < ivs.size(); ++d)
      if (iterators[d] == utils::IteratorType::parallel)
        ivs[d] = resultIvs[r++];

    SmallVector<Value> acc; // the fill's value, in a register, or the buffer's
    for (OpOperand &init : op.getDpsInitsMutable()) {
      auto it = stored.find(init.get());
      if (it != stored.end()) {
        acc.push_back(it->second);
        continue;
      }
      AffineMap map = op.getMatchingIndexingMap(&init);
      acc.push_back(memref::LoadOp::create(b, loc, init.get(), indices(b, loc, map, ivs)));
    }
    arith::AddFOp sum = kfuse::lowering::compensatedSumCombiner(op);
    Value lost;
    if (sum)
      lost = arith::ConstantOp::create(b, loc, b.getFloatAttr(acc[0].getType(), 0.0));

    int64_t terms = 1;
    for (unsigned d : reduced)
      terms *= ranges[d];
    for (int64_t t = 0; t < terms; ++t) {
      for (int64_t rest = t, k = (int64_t)reduced.size() - 1; k >= 0; --k) {
        ivs[reduced[k]] = arith::ConstantIndexOp::create(b, loc, rest % ranges[reduced[k]]);
        rest /= ranges[reduced[k]];
      }
      IRMapping mapping;
      for (OpOperand *input : op.getDpsInputOperands()) {
        BlockArgument arg = body.getArgument(input->getOperandNumber());
        if (!arg.use_empty())
          mapping.map(arg, memref::LoadOp::create(
                               b, loc, input->get(),
                               indices(b, loc, op.getMatchingIndexingMap(input), ivs)));
      }
      for (auto [k, init] : llvm::enumerate(op.getDpsInitsMutable()))
        mapping.map(body.getArgument(init.getOperandNumber()), acc[k]);
      if (!sum) {
        acc = cloneBody(b, op, mapping, ivs);
        continue;
      }
      // The body but its final add, whose other operand is the term.
      for (Operation &inner : body.without_terminator()) {
        if (auto index = dyn_cast<linalg::IndexOp>(inner))
          mapping.map(index.getResult(), ivs[index.getDim()]);
        else if (&inner != sum.getOperation())
          b.clone(inner, mapping);
      }
      Value out = body.getArguments().back();
      Value term = mapping.lookup(sum.getLhs() == out ? sum.getRhs() : sum.getLhs());
      std::tie(acc[0], lost) = kfuse::lowering::compensatedAdd(b, loc, acc[0], lost, term);
    }
    for (auto [v, init] : llvm::zip(acc, op.getDpsInitsMutable())) {
      memref::StoreOp::create(b, loc, v, init.get(),
                              indices(b, loc, op.getMatchingIndexingMap(&init), ivs));
      stored[init.get()] = v;
    }
  }

  static VectorType vectorType(Type element, unsigned lanes) {
    return VectorType::get({lanes}, element);
  }

  /// The alignment a vector access may promise: the buffers are at least
  /// 16-byte aligned (kfuse's allocations) and i0 is a multiple of `lanes`.
  static IntegerAttr alignment(OpBuilder &b, Type element, unsigned lanes) {
    unsigned bytes = std::max(1u, element.getIntOrFloatBitWidth() / 8) * lanes;
    return b.getI64IntegerAttr(std::min(bytes, 16u));
  }

};

/// Whether every access of the kernel is contiguous and in iteration
/// order, so that consecutive threads' elements can be read as vectors.
bool isVectorizable(ArrayRef<linalg::GenericOp> ops) {
  for (linalg::GenericOp op : ops) {
    if (op.getNumLoops() == 0 || op.getNumReductionLoops() || llvm::any_of(op.getBody()->getOps<linalg::IndexOp>(),
                                              [](auto) { return true; }))
      return false;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = cast<MemRefType>(operand.get().getType());
      // i1 is a byte per element in memory but a bit per lane in an LLVM
      // vector: bool buffers are accessed element by element.
      if (!op.getMatchingIndexingMap(&operand).isIdentity() ||
          !type.getLayout().isIdentity() ||
          !type.getElementType().isIntOrFloat() ||
          type.getElementType().getIntOrFloatBitWidth() < 8)
        return false;
    }
  }
  return true;
}

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
  OpBuilder::InsertionGuard guard(b);
  Location loc = first.getLoc();
  unsigned lanes = vectorWidth > 1 && isVectorizable(ops) ? vectorWidth : 1;

  // Each op's result sizes (the parallel loops: a small reduction's
  // reduced loops are each thread's; ops reshaped from one another have as
  // many elements), their product n, and the grid: ceil(n / (block *
  // lanes)).
  std::vector<SmallVector<Value>> opSizes;
  for (linalg::GenericOp op : ops) {
    SmallVector<Value> sizes;
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (auto [r, iterator] : llvm::zip(
             cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(b, loc),
             iterators))
      if (iterator == utils::IteratorType::parallel)
        sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
    opSizes.push_back(sizes);
  }
  ArrayRef<Value> sizes = opSizes.back();
  Value n = arith::ConstantIndexOp::create(b, loc, 1);
  for (Value s : sizes)
    n = arith::MulIOp::create(b, loc, n, s);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value block = arith::ConstantIndexOp::create(b, loc, blockSize);
  Value width = arith::ConstantIndexOp::create(b, loc, lanes);
  Value perBlock = arith::MulIOp::create(b, loc, block, width);
  Value grid = arith::MaxUIOp::create(
      b, loc, arith::CeilDivUIOp::create(b, loc, n, perBlock), one);
  // Contiguous buffers are read through 1-D views of the same memory.
  llvm::DenseMap<Value, Value> flat;
  if (lanes > 1)
    for (linalg::GenericOp op : ops)
      for (Value v : op->getOperands()) {
        auto type = cast<MemRefType>(v.getType());
        if (flat.count(v))
          continue;
        if (type.getRank() == 1) {
          flat[v] = v;
          continue;
        }
        ReassociationIndices all;
        for (int64_t d = 0; d < type.getRank(); ++d)
          all.push_back(d);
        flat[v] = memref::CollapseShapeOp::create(
            b, loc, v, ArrayRef<ReassociationIndices>{all});
      }
  auto launch =
      buildKernelLaunch(b, loc, name.getValue(), {grid, one, one, block, one, one});

  b.setInsertionPointToStart(&launch.getBody().front());
  Value thread = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, launch.getBlockIds().x, block),
      launch.getThreadIds().x);
  Value i0 = arith::MulIOp::create(b, loc, thread, width);
  KernelBody body(ops, opSizes);
  if (lanes == 1) {
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

/// Runs the ops of a kernel no mapping serves (the serial mapping, host CPU
/// only) as one launch of one thread: the ops move into the launch
/// unchanged and become loops later.
void kfuse::gpu::mapSerialKernel(RewriterBase &b, StringAttr name,
                                 ArrayRef<linalg::LinalgOp> ops) {
  OpBuilder::InsertionGuard guard(b);
  linalg::LinalgOp last = ops.back();
  Location loc = last.getLoc();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch =
      buildKernelLaunch(b, loc, name.getValue(), {one, one, one, one, one, one});
  b.setInsertionPointToStart(&launch.getBody().front());
  auto terminator = mlir::gpu::TerminatorOp::create(b, loc);
  for (linalg::LinalgOp op : ops)
    b.moveOpBefore(op, terminator);
}
