//===- PointwiseBody.cpp - the ops of a flat kernel for one element -------===//
#include "passes/gpu/flat/PointwiseBody.h"
#include "passes/launch/MappingUtils.h"
#include "passes/utils/CompensatedSum.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace kfuse::gpu;

static VectorType vectorType(Type element, unsigned lanes) {
  return VectorType::get({lanes}, element);
}

/// The alignment a vector access may promise: the buffers are at least
/// 16-byte aligned (kfuse's allocations) and i0 is a multiple of `lanes`.
static IntegerAttr alignment(OpBuilder &b, Type element, unsigned lanes) {
  unsigned bytes = std::max(1u, element.getIntOrFloatBitWidth() / 8) * lanes;
  return b.getI64IntegerAttr(std::min(bytes, 16u));
}

void PointwiseBody::scalar(OpBuilder &b, Location loc, Value i) { emit(b, loc, i, {}); }

void PointwiseBody::scalarAt(OpBuilder &b, Location loc, ArrayRef<Value> ivs) {
  emit(b, loc, Value(), ivs);
}

void PointwiseBody::scalarAtEach(OpBuilder &b, Location loc,
                                 ArrayRef<SmallVector<Value>> opIvs) {
  emit(b, loc, Value(), {}, opIvs);
}

void PointwiseBody::emit(OpBuilder &b, Location loc, Value i, ArrayRef<Value> givenIvs,
                         ArrayRef<SmallVector<Value>> opIvs) {
  SmallVector<Value> ivs(givenIvs);
  ArrayRef<Value> ivSizes;
  llvm::DenseMap<Value, Value> stored; // buffer -> this element's value
  for (auto [k, constOp] : llvm::enumerate(ops)) {
    linalg::GenericOp op = constOp;
    if (!opIvs.empty())
      ivs = opIvs[k];
    else if (i && (ivs.empty() || ArrayRef<Value>(opSizes[k]) != ivSizes)) {
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
      if (Value v = readOverride ? readOverride(b, loc, operand, ivs) : Value()) {
        mapping.map(arg, v);
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

void PointwiseBody::vector(OpBuilder &b, Location loc, Value i0, unsigned lanes,
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

void PointwiseBody::smallReduction(OpBuilder &b, Location loc, linalg::GenericOp op,
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

/// Whether every access of the kernel is contiguous and in iteration
/// order, so that consecutive threads' elements can be read as vectors.
bool kfuse::gpu::isVectorizable(ArrayRef<linalg::GenericOp> ops) {
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

std::vector<SmallVector<Value>>
kfuse::gpu::parallelSizes(OpBuilder &b, Location loc, ArrayRef<linalg::GenericOp> ops) {
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
  return opSizes;
}

llvm::DenseMap<Value, Value> kfuse::gpu::flatViews(OpBuilder &b, Location loc,
                                                   ArrayRef<linalg::GenericOp> ops) {
  llvm::DenseMap<Value, Value> flat;
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
      flat[v] = memref::CollapseShapeOp::create(b, loc, v, ArrayRef<ReassociationIndices>{all});
    }
  return flat;
}

std::optional<SmallVector<int64_t>> kfuse::gpu::sharedLoops(ArrayRef<linalg::GenericOp> ops) {
  SmallVector<int64_t> ranges = linalg::GenericOp(ops.front()).getStaticLoopRanges();
  if (ranges.empty())
    return std::nullopt;
  for (linalg::GenericOp op : ops)
    if (op.getNumReductionLoops() || op.getStaticLoopRanges() != ranges ||
        !op.getBody()->getOps<linalg::IndexOp>().empty())
      return std::nullopt;
  return ranges;
}

bool kfuse::gpu::isSwappedLastTwo(AffineMap map) {
  unsigned rank = map.getNumDims();
  if (rank < 2 || map.getNumResults() != rank || !map.isPermutation())
    return false;
  for (unsigned d = 0; d + 2 < rank; ++d)
    if (map.getResult(d) != getAffineDimExpr(d, map.getContext()))
      return false;
  return map.getResult(rank - 2) == getAffineDimExpr(rank - 1, map.getContext()) &&
         map.getResult(rank - 1) == getAffineDimExpr(rank - 2, map.getContext());
}
