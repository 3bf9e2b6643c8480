//===- VectorCloner.cpp - the host's one vectorizer of linalg bodies ------===//
#include "passes/host/mappings/VectorCloner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using kfuse::host::TailLanes;
using kfuse::host::VectorCloner;

namespace {

bool isScalar(Type t) { return t.isIntOrIndexOrFloat(); }

} // namespace

bool VectorCloner::vectorizes(Operation &op, TailLanes tail) {
  if (op.hasTrait<OpTrait::ConstantLike>())
    return op.getNumResults() == 1 && isScalar(op.getResult(0).getType());
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
