//===- VectorCloner.cpp - the host's one vectorizer of linalg bodies ------===//
#include "passes/host/mappings/VectorCloner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using kfuse::host::TailLanes;
using kfuse::host::VectorCloner;

namespace {

bool isScalar(Type t) { return t.isIntOrIndexOrFloat(); }

} // namespace

bool VectorCloner::vectorizes(Operation &op, TailLanes tail) {
  if (op.hasTrait<OpTrait::ConstantLike>())
    return op.getNumResults() == 1 && isScalar(op.getResult(0).getType());
  // A read at indices the body computes (an embedding's row, a gather): a
  // vector.gather from the buffer seen flat, which needs it contiguous.
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return load.getMemRefType().getLayout().isIdentity() &&
           load.getType().isIntOrFloat() && load.getType().getIntOrFloatBitWidth() >= 8;
  if (!isa<arith::ArithDialect, math::MathDialect>(op.getDialect()) ||
      !op.hasTrait<OpTrait::Elementwise>() || op.getNumRegions() || op.getNumResults() != 1)
    return false;
  if (isa<arith::ArithDialect>(op.getDialect()) && !op.hasTrait<OpTrait::Vectorizable>())
    return false;
  if (tail == TailLanes::Zeros &&
      isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp, arith::CeilDivSIOp,
          arith::CeilDivUIOp, arith::FloorDivSIOp>(op))
    return false;
  return llvm::all_of(op.getOperandTypes(), isScalar) &&
         llvm::all_of(op.getResultTypes(), isScalar);
}

bool VectorCloner::vectorizes(linalg::GenericOp op, TailLanes tail, bool withIndex) {
  return llvm::all_of(op.getBody()->without_terminator(), [&](Operation &inner) {
    return (withIndex && isa<linalg::IndexOp>(inner)) || vectorizes(inner, tail);
  });
}

VectorType VectorCloner::vectorOf(Type element) const {
  return VectorType::get({lanes}, element);
}

Value VectorCloner::broadcast(Value v) {
  if (isa<VectorType>(v.getType()))
    return v;
  return vector::BroadcastOp::create(b, loc, vectorOf(v.getType()), v);
}

SmallVector<Value> VectorCloner::cloneBody(linalg::GenericOp op, IRMapping &m,
                                           function_ref<Value(unsigned)> index,
                                           Operation *skip) {
  Block &body = op.getRegion().front();
  for (Operation &inner : body.without_terminator()) {
    if (&inner == skip)
      continue;
    if (auto idx = dyn_cast<linalg::IndexOp>(inner)) {
      m.map(idx.getResult(), index(idx.getDim()));
      continue;
    }
    SmallVector<Value> operands;
    for (Value v : inner.getOperands())
      operands.push_back(m.lookupOrDefault(v));
    if (llvm::none_of(operands, [](Value v) { return isa<VectorType>(v.getType()); })) {
      b.clone(inner, m); // the same in every lane (a constant, a row value)
      continue;
    }
    if (auto load = dyn_cast<memref::LoadOp>(inner)) { // indices as vectors, not the buffer
      if (Value row = rowRead(load, ArrayRef<Value>(operands).drop_front())) {
        m.map(load.getResult(), row);
        continue;
      }
      SmallVector<Value> indices;
      for (Value v : ArrayRef<Value>(operands).drop_front())
        indices.push_back(broadcast(v));
      m.map(load.getResult(), gather(load, indices));
      continue;
    }
    for (Value &v : operands)
      v = broadcast(v);
    m.map(inner.getResult(0), cloneOnVectors(inner, operands, inner.getResult(0).getType()));
  }
  SmallVector<Value> out;
  for (Value v : cast<linalg::YieldOp>(body.getTerminator()).getValues())
    out.push_back(m.lookupOrDefault(v));
  return out;
}

Value VectorCloner::cloneOnVectors(Operation &op, ArrayRef<Value> operands, Type resultType) {
  OperationState state(loc, op.getName());
  state.addOperands(operands);
  state.addTypes(vectorOf(resultType));
  state.addAttributes(op.getAttrs());
  return b.create(state)->getResult(0);
}

/// `v`'s scalar s where v is s + [0, 1, .., lanes - 1] (the lanes' index
/// along the vector loop), else null.
static Value rampStart(Value v, int64_t lanes) {
  auto add = v.getDefiningOp<arith::AddIOp>();
  if (!add)
    return Value();
  for (auto [base, steps] : {std::pair(add.getLhs(), add.getRhs()),
                             std::pair(add.getRhs(), add.getLhs())}) {
    auto splat = base.getDefiningOp<vector::BroadcastOp>();
    if (!splat || !isa<IndexType>(splat.getSource().getType()))
      continue;
    if (steps.getDefiningOp<vector::StepOp>())
      return splat.getSource();
    DenseIntElementsAttr c;
    if (!matchPattern(steps, m_Constant(&c)))
      continue;
    int64_t lane = 0;
    if (llvm::all_of(c.getValues<APInt>(), [&](const APInt &x) { return x == lane++; }) &&
        lane == lanes)
      return splat.getSource();
  }
  return Value();
}

Value VectorCloner::rowRead(memref::LoadOp load, ArrayRef<Value> indices) {
  // An embedding's row: the table's row the same in every lane, its columns
  // the lanes'. One masked load (the lanes past the buffer's end read 0,
  // as a row's tail may compute them) where a gather took 8 loads; BERT's
  // three embeddings were 44 us for 8 x 64 tokens on one core.
  Value start = rampStart(indices.back(), lanes);
  if (!start || llvm::any_of(indices.drop_back(), [](Value v) {
        return isa<VectorType>(v.getType());
      }))
    return Value();
  MemRefType type = load.getMemRefType();
  SmallVector<Value> at;
  for (auto [k, i] : llvm::enumerate(indices.drop_back())) {
    Value last = arith::SubIOp::create(b, loc, memref::DimOp::create(b, loc, load.getMemRef(), k),
                                       arith::ConstantIndexOp::create(b, loc, 1));
    at.push_back(arith::MinUIOp::create(b, loc, i, last));
  }
  at.push_back(start);
  Value size = memref::DimOp::create(b, loc, load.getMemRef(), type.getRank() - 1);
  Value left = arith::MaxSIOp::create(b, loc, arith::SubIOp::create(b, loc, size, start),
                                      arith::ConstantIndexOp::create(b, loc, 0));
  Value mask =
      vector::CreateMaskOp::create(b, loc, VectorType::get({lanes}, b.getI1Type()), left);
  Type element = load.getType();
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vectorOf(element), b.getZeroAttr(element)));
  return vector::MaskedLoadOp::create(b, loc, vectorOf(element), load.getMemRef(), at, mask,
                                      zeros);
}

Value VectorCloner::gather(memref::LoadOp load, ArrayRef<Value> indices) {
  // Each lane's index clamped into its dim: the lanes past the data (a
  // row's masked tail) compute columns past the end, and a gather, unlike
  // a masked load, would read there; the lanes that matter are in range
  // (an index_select clamps its index before reading, then selects NaN).
  MemRefType type = load.getMemRefType();
  auto indexVector = VectorType::get({lanes}, b.getIndexType());
  // Row-major strides, static or not, from the last dim inward: each the
  // one after it times that dim's size.
  Value offset, stride;
  for (int k = type.getRank() - 1; k >= 0; --k) {
    Value size = memref::DimOp::create(b, loc, load.getMemRef(), k);
    Value last = arith::SubIOp::create(b, loc, size, arith::ConstantIndexOp::create(b, loc, 1));
    Value i = arith::MinUIOp::create(b, loc, indices[k],
                                     vector::BroadcastOp::create(b, loc, indexVector, last));
    Value scaled =
        stride ? arith::MulIOp::create(b, loc, i,
                                       vector::BroadcastOp::create(b, loc, indexVector, stride))
                     .getResult()
               : i;
    offset = offset ? arith::AddIOp::create(b, loc, offset, scaled).getResult() : scaled;
    stride = stride ? arith::MulIOp::create(b, loc, stride, size).getResult() : size;
  }
  Value flat = load.getMemRef();
  if (type.getRank() != 1) {
    SmallVector<ReassociationIndices> all(1);
    for (int64_t k = 0; k < type.getRank(); ++k)
      all[0].push_back(k);
    flat = memref::CollapseShapeOp::create(b, loc, flat, all);
  }
  Type element = load.getType();
  Value mask = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(VectorType::get({lanes}, b.getI1Type()), true));
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vectorOf(element), b.getZeroAttr(element)));
  return vector::GatherOp::create(b, loc, vectorOf(element), flat,
                                  ValueRange{arith::ConstantIndexOp::create(b, loc, 0)}, offset,
                                  mask, zeros);
}
