//===- BroadcastUtils.cpp - broadcasting through indexing maps ------------===//
#include "passes/kf-to-linalg/Lowering.h"
#include "dialect/Kf/KfAttrs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace kfuse::lowering {

Value dimValue(OpBuilder &b, Location loc, Value tensor, int64_t dim) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(dim))
    return arith::ConstantIndexOp::create(b, loc, type.getDimSize(dim));
  return tensor::DimOp::create(b, loc, tensor, dim);
}

SmallVector<Value> broadcastSizes(OpBuilder &b, Location loc, StringRef opName,
                                  ValueRange operands, ArrayRef<int64_t> ranks,
                                  ArrayRef<int64_t> resultShape) {
  int64_t rank = resultShape.size();
  SmallVector<Value> dynamicSizes;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t size = resultShape[i];
    Value reference; // the result size at run time, made when first needed
    auto staticReference = [&]() -> Value {
      if (!reference && !ShapedType::isDynamic(size))
        reference = arith::ConstantIndexOp::create(b, loc, size);
      return reference;
    };
    for (auto [k, operand] : llvm::enumerate(operands)) {
      int64_t j = i - (rank - ranks[k]);
      if (j < 0)
        continue;
      auto type = cast<RankedTensorType>(operand.getType());
      if (!type.isDynamicDim(j))
        continue; // static dims were checked by the verifier
      Value d = tensor::DimOp::create(b, loc, operand, j);
      if (!staticReference()) {
        reference = d;
        continue;
      }
      Value eq = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d,
                                       reference);
      std::string msg = (opName + ": dynamic dim " + Twine(j) + " of operand #" +
                         Twine(k) + " does not match the broadcast size (a "
                         "dynamic dim never broadcasts)")
                            .str();
      cf::AssertOp::create(b, loc, eq, msg);
    }
    if (ShapedType::isDynamic(size))
      dynamicSizes.push_back(reference);
  }
  return dynamicSizes;
}

BroadcastOperand broadcastOperand(OpBuilder &b, Location loc, Value operand,
                                  int64_t rank, ArrayRef<int64_t> resultShape,
                                  ArrayRef<int64_t> trailingLoops) {
  auto type = cast<RankedTensorType>(operand.getType());
  int64_t offset = (int64_t)resultShape.size() - rank;
  // Keep a dim unless it is a static 1 that stretches to the result size.
  SmallVector<bool> keep;
  BroadcastOperand out;
  for (int64_t j = 0; j < type.getRank(); ++j) {
    bool stretched = j < rank && type.getDimSize(j) == 1 &&
                     resultShape[j + offset] != 1;
    keep.push_back(!stretched);
    if (stretched)
      continue;
    out.loopDims.push_back(j < rank ? j + offset : trailingLoops[j - rank]);
  }
  if (llvm::all_of(keep, [](bool k) { return k; })) {
    out.value = operand;
    return out;
  }
  // Reassociation: every dropped unit dim joins the group of the next kept
  // dim (or of the last kept dim when it trails).
  SmallVector<ReassociationIndices> groups;
  SmallVector<int64_t> shape;
  ReassociationIndices pending;
  for (int64_t j = 0; j < type.getRank(); ++j) {
    pending.push_back(j);
    if (!keep[j])
      continue;
    groups.push_back(pending);
    pending.clear();
    shape.push_back(type.getDimSize(j));
  }
  if (!groups.empty())
    groups.back().append(pending.begin(), pending.end());
  auto collapsedType = RankedTensorType::get(shape, type.getElementType());
  out.value = tensor::CollapseShapeOp::create(b, loc, collapsedType, operand,
                                              groups);
  return out;
}

AffineMap operandMap(MLIRContext *ctx, int64_t numLoops,
                     ArrayRef<int64_t> loopDims) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d : loopDims)
    exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(numLoops, 0, exprs, ctx);
}

Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                  ValueRange dynamicSizes) {
  return tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(),
                                 dynamicSizes);
}

void tagKernel(Operation *linalgOp, Operation *kfOp) {
  kf::setEagerOpName(linalgOp, kfOp->getName().stripDialect());
}

} // namespace kfuse::lowering
