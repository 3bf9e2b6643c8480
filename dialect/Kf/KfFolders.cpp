//===- KfFolders.cpp - folders of kf ops ----------------------------------===//
//
// Only folds that are exact: x + (-0.0) and x - 0 but not x + 0.0 for floats
// (that would turn -0.0 into +0.0), x * 1, x / 1, and constant folding of
// small same-shape float or integer constants; floor, ceil and round of
// integers.
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfOps.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace kfuse::kf;

/// Constant folding is limited to small tensors so that the IR does not
/// grow with large literal data.
static constexpr int64_t kMaxFoldedElements = 1024;

namespace {
enum class Identity { Zero, NegZero, One };
} // namespace

/// Whether `attr` is a splat equal to the identity element `id`.
static bool isSplatIdentity(Attribute attr, Identity id) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(attr);
  if (!splat)
    return false;
  Type elt = splat.getElementType();
  if (isa<FloatType>(elt)) {
    APFloat v = splat.getSplatValue<APFloat>();
    switch (id) {
    case Identity::Zero:
      return v.isZero();
    case Identity::NegZero:
      return v.isZero() && v.isNegative();
    case Identity::One:
      return v.isExactlyValue(1.0);
    }
  }
  if (elt.isInteger(1))
    return false; // bool add is `or`, mul is `and`: keep it simple
  APInt v = splat.getSplatValue<APInt>();
  return id == Identity::One ? v.isOne() : v.isZero();
}

/// `lhs op identity` folds to lhs when the result has lhs's exact type (the
/// identity did not broadcast lhs or promote its dtype).
static Value foldIdentity(Operation *op, Value lhs, Attribute rhsAttr,
                          Identity floatId, Identity intId) {
  Type elt = getElementTypeOrSelf(lhs.getType());
  Identity id = isa<FloatType>(elt) ? floatId : intId;
  if (lhs.getType() == op->getResult(0).getType() &&
      isSplatIdentity(rhsAttr, id))
    return lhs;
  return {};
}

/// Folds a binary op on two small constants of the result's exact type.
template <typename FloatFn, typename IntFn>
static Attribute foldConstants(Operation *op, ArrayRef<Attribute> operands,
                               FloatFn floatFn, IntFn intFn) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (!type.hasStaticShape() || type.getNumElements() > kMaxFoldedElements ||
      type.getElementType().isInteger(1))
    return {};
  for (Value v : op->getOperands())
    if (v.getType() != type)
      return {};
  if (isa<FloatType>(type.getElementType()))
    return constFoldBinaryOp<FloatAttr, APFloat, void>(operands, floatFn);
  return constFoldBinaryOp<IntegerAttr, APInt, void>(operands, intFn);
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (Value v = foldIdentity(*this, getLhs(), adaptor.getRhs(),
                             Identity::NegZero, Identity::Zero))
    return v;
  return foldConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a + b; },
      [](const APInt &a, const APInt &b) { return a + b; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (Value v = foldIdentity(*this, getLhs(), adaptor.getRhs(), Identity::Zero,
                             Identity::Zero))
    return v;
  return foldConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a - b; },
      [](const APInt &a, const APInt &b) { return a - b; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (Value v = foldIdentity(*this, getLhs(), adaptor.getRhs(), Identity::One,
                             Identity::One))
    return v;
  return foldConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a * b; },
      [](const APInt &a, const APInt &b) { return a * b; });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (Value v = foldIdentity(*this, getLhs(), adaptor.getRhs(), Identity::One,
                             Identity::One))
    return v;
  // Integer division promotes to float, so only float constants fold here.
  if (!isa<FloatType>(getElementTypeOrSelf(getType())))
    return {};
  return foldConstants(
      *this, adaptor.getOperands(),
      [](const APFloat &a, const APFloat &b) { return a / b; },
      [](const APInt &, const APInt &) -> std::optional<APInt> {
        return std::nullopt;
      });
}

OpFoldResult NegOp::fold(FoldAdaptor) {
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  return {};
}

/// floor, ceil and round of an integer tensor are the tensor (as PyTorch
/// returns a copy): no kernel.
template <typename OpTy> static OpFoldResult foldIntegerRounding(OpTy op) {
  if (isa<IntegerType>(getElementTypeOrSelf(op.getInput().getType())))
    return op.getInput();
  return {};
}
OpFoldResult FloorOp::fold(FoldAdaptor) { return foldIntegerRounding(*this); }
OpFoldResult CeilOp::fold(FoldAdaptor) { return foldIntegerRounding(*this); }
OpFoldResult RoundOp::fold(FoldAdaptor) { return foldIntegerRounding(*this); }

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  auto type = cast<RankedTensorType>(getType());
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    if (type.hasStaticShape())
      return dense.reshape(type);
  // reshape(reshape(x)) reads x directly: a reshape only depends on the
  // element count, which the inner reshape kept.
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  auto isIdentity = [](ArrayRef<int64_t> perm) {
    for (auto [i, p] : llvm::enumerate(perm))
      if ((int64_t)i != p)
        return false;
    return true;
  };
  SmallVector<int64_t> perm = getNormalizedPermutation();
  if (isIdentity(perm))
    return getInput();
  // transpose(transpose(x, inner), outer): dim i of the result is dim
  // inner[outer[i]] of x.
  if (auto inner = getInput().getDefiningOp<TransposeOp>()) {
    SmallVector<int64_t> composed, innerPerm = inner.getNormalizedPermutation();
    for (int64_t p : perm)
      composed.push_back(innerPerm[p]);
    if (isIdentity(composed))
      return inner.getInput();
    setPermutation(composed);
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  auto type = cast<RankedTensorType>(getType());
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getInput()))
    if (type.hasStaticShape())
      return SplatElementsAttr::get(type, splat.getSplatValue<Attribute>());
  return {};
}
