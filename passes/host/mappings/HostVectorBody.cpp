//===- HostVectorBody.cpp - a flat kernel's ops on vectors, for the CPU ---===//
#include "passes/host/mappings/HostVectorBody.h"
#include "passes/launch/MappingUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using kfuse::host::VectorBody;

bool kfuse::host::isShiftOf(AffineExpr e, AffineExpr last) {
  if (e == last)
    return true;
  auto sum = dyn_cast<AffineBinaryOpExpr>(e);
  if (!sum || sum.getKind() != AffineExprKind::Add)
    return false;
  return (sum.getLHS() == last && isa<AffineConstantExpr>(sum.getRHS())) ||
         (sum.getRHS() == last && isa<AffineConstantExpr>(sum.getLHS()));
}

bool VectorBody::supports(ArrayRef<linalg::GenericOp> ops) {
  // Whole vectors only: the scalar loop runs the tail.
  return llvm::all_of(ops, [](linalg::GenericOp op) {
    return VectorCloner::vectorizes(op, TailLanes::None);
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
    VectorCloner cloner(b, loc, lanes);
    SmallVector<Value> results = cloner.cloneBody(op, mapping);
    for (auto [v, init] : llvm::zip(results, op.getDpsInitsMutable())) {
      Value result = cloner.broadcast(v);
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
  if (map.getNumResults() && isShiftOf(map.getResults().back(), b.getAffineDimExpr(ivs.size() - 1)))
    return vector::LoadOp::create(b, loc, vectorOf(element), operand.get(), at);
  return vector::BroadcastOp::create(b, loc, vectorOf(element),
                                     memref::LoadOp::create(b, loc, operand.get(), at));
}
