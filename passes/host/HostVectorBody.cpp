//===- HostVectorBody.cpp - a flat kernel's ops on vectors, for the CPU ---===//
#include "passes/host/HostVectorBody.h"
#include "passes/gpu/MappingUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using kfuse::host::VectorBody;

/// Whether an op of a generic's body can run on vectors as it is: an
/// elementwise op (arith, math) of scalars, or a constant (broadcast where
/// it is used).
static bool isVectorOp(Operation &op) {
  if (op.hasTrait<OpTrait::ConstantLike>())
    return true;
  if (!op.hasTrait<OpTrait::Elementwise>() || op.getNumRegions())
    return false;
  auto scalar = [](Type t) { return t.isIntOrIndexOrFloat(); };
  return llvm::all_of(op.getOperandTypes(), scalar) &&
         llvm::all_of(op.getResultTypes(), scalar);
}

bool VectorBody::supports(ArrayRef<linalg::GenericOp> ops) {
  return llvm::all_of(ops, [](linalg::GenericOp op) {
    return llvm::all_of(op.getBody()->without_terminator(), isVectorOp);
  });
}

void VectorBody::emit(OpBuilder &b, Location loc, ArrayRef<Value> ivs) {
  llvm::DenseMap<Value, Value> stored; // buffer -> its vector here
  for (linalg::GenericOp op : ops) {
    Block &body = op.getRegion().front();
    IRMapping mapping;
    for (OpOperand &operand : op->getOpOperands()) {
      BlockArgument arg = body.getArgument(operand.getOperandNumber());
      if (arg.use_empty())
        continue;
      bool same = op.getMatchingIndexingMap(&operand).isIdentity();
      Value v = same ? stored.lookup(operand.get()) : Value();
      mapping.map(arg, v ? v : load(b, loc, op, operand, arg.getType(), ivs));
    }
    for (Operation &inner : body.without_terminator())
      cloneAsVector(b, inner, mapping);
    auto yield = cast<linalg::YieldOp>(body.getTerminator());
    for (auto [v, init] : llvm::zip(yield.getValues(), op.getDpsInitsMutable())) {
      Value result = asVector(b, loc, mapping.lookupOrDefault(v));
      if (Value view = flat.lookup(init.get())) {
        vector::StoreOp::create(b, loc, result, view, ivs[0]);
      } else {
        AffineMap map = op.getMatchingIndexingMap(&init);
        vector::StoreOp::create(b, loc, result, init.get(),
                                kfuse::gpu::indices(b, loc, map, ivs));
      }
      if (op.getMatchingIndexingMap(&init).isIdentity())
        stored[init.get()] = result;
    }
  }
}

VectorType VectorBody::vectorOf(Type element) const {
  return VectorType::get({lanes}, element);
}

Value VectorBody::load(OpBuilder &b, Location loc, linalg::GenericOp op, OpOperand &operand,
           Type element, ArrayRef<Value> ivs) {
  if (Value v = readOverride ? readOverride(operand) : Value())
    return v;
  if (Value view = flat.lookup(operand.get()))
    return vector::LoadOp::create(b, loc, vectorOf(element), view, ivs[0]);
  AffineMap map = op.getMatchingIndexingMap(&operand);
  SmallVector<Value> at = kfuse::gpu::indices(b, loc, map, ivs);
  if (map.getNumResults() && map.getResults().back() == b.getAffineDimExpr(ivs.size() - 1))
    return vector::LoadOp::create(b, loc, vectorOf(element), operand.get(), at);
  return vector::BroadcastOp::create(b, loc, vectorOf(element),
                                     memref::LoadOp::create(b, loc, operand.get(), at));
}

Value VectorBody::asVector(OpBuilder &b, Location loc, Value v) {
  if (isa<VectorType>(v.getType()))
    return v;
  return vector::BroadcastOp::create(b, loc, vectorOf(v.getType()), v);
}

void VectorBody::cloneAsVector(OpBuilder &b, Operation &op, IRMapping &mapping) {
  if (op.hasTrait<OpTrait::ConstantLike>()) {
    b.clone(op, mapping); // scalar: broadcast by its users
    return;
  }
  OperationState state(op.getLoc(), op.getName());
  for (Value operand : op.getOperands())
    state.addOperands(asVector(b, op.getLoc(), mapping.lookupOrDefault(operand)));
  for (Type t : op.getResultTypes())
    state.addTypes(vectorOf(t));
  state.addAttributes(op.getAttrs());
  Operation *vectorOp = b.create(state);
  mapping.map(op.getResults(), vectorOp->getResults());
}
