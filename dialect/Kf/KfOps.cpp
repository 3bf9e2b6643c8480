//===- KfOps.cpp - kf op type inference and verifiers ---------------------===//
#include "dialect/Kf/KfOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace kfuse::kf;

#define GET_OP_CLASSES
#include "dialect/Kf/KfOps.cpp.inc"

static std::string str(ArrayRef<int64_t> v) {
  std::string s = "[";
  for (auto [i, x] : llvm::enumerate(v))
    s += (i ? ", " : "") + std::to_string(x);
  return s + "]";
}

//===----------------------------------------------------------------------===//
// CastOp, ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult CastOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  Type dtype = adaptor.getDtype();
  if (!isKfElementType(dtype))
    return emitOptionalError(loc, "'kf.cast' target dtype ", dtype,
                             " is not one of f32, f16, bf16, f64, i32, i64, i1");
  types.push_back(cast<RankedTensorType>(adaptor.getInput().getType()).clone(dtype));
  return success();
}

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  auto type = dyn_cast<RankedTensorType>(adaptor.getValue().getType());
  if (!type || !type.hasStaticShape() || !isKfElementType(type.getElementType()))
    return emitOptionalError(loc, "'kf.constant' needs a static tensor of f32, "
                                  "f16, bf16, f64, i32, i64 or i1, got ",
                             adaptor.getValue().getType());
  types.push_back(type);
  return success();
}

//===----------------------------------------------------------------------===//
// ReshapeOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  auto input = cast<RankedTensorType>(adaptor.getInput().getType());
  ArrayRef<int64_t> shape = adaptor.getShape();
  if (failed(verifyElementCount(loc, "kf.reshape", input.getShape())) ||
      failed(verifyElementCount(loc, "kf.reshape", shape)))
    return failure();
  int64_t inferred = -1, known = 1;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (d == -1) {
      if (inferred >= 0)
        return emitOptionalError(loc, "'kf.reshape' shape ", str(shape),
                                 " has more than one -1");
      inferred = i;
    } else if (d < 0) {
      return emitOptionalError(loc, "'kf.reshape' shape ", str(shape),
                               " has invalid size ", d);
    } else {
      known *= d;
    }
  }
  SmallVector<int64_t> out(shape);
  if (input.hasStaticShape()) {
    int64_t n = input.getNumElements();
    if (inferred >= 0) {
      if (known == 0 || n % known != 0)
        return emitOptionalError(loc, "'kf.reshape' cannot reshape tensor of ",
                                 n, " elements (", shapeToString(input.getShape()),
                                 ") to ", str(shape));
      out[inferred] = n / known;
    } else if (n != known) {
      return emitOptionalError(loc, "'kf.reshape' cannot reshape tensor of ",
                               n, " elements (", shapeToString(input.getShape()),
                               ") to ", str(shape), " (", known, " elements)");
    }
  } else if (inferred >= 0) {
    out[inferred] = ShapedType::kDynamic; // checked at run time
  }
  types.push_back(input.clone(out));
  return success();
}

//===----------------------------------------------------------------------===//
// TransposeOp, BroadcastToOp
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  auto input = cast<RankedTensorType>(adaptor.getInput().getType());
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  int64_t rank = input.getRank();
  SmallVector<bool> seen(rank, false);
  bool ok = (int64_t)perm.size() == rank;
  // As torch.permute: dim -1 is the last (valid dims: -rank .. rank-1).
  SmallVector<int64_t> normalized;
  for (int64_t p : perm) {
    int64_t q = p < 0 ? p + rank : p;
    ok = ok && q >= 0 && q < rank && !seen[q];
    if (ok)
      seen[q] = true;
    normalized.push_back(q);
  }
  if (failed(verifyElementCount(loc, "kf.transpose", input.getShape())))
    return failure();
  if (!ok)
    return emitOptionalError(loc, "'kf.transpose' ", str(perm),
                             " is not a permutation of the ", input.getRank(),
                             " dims of ", shapeToString(input.getShape()));
  SmallVector<int64_t> out;
  for (int64_t p : normalized)
    out.push_back(input.getDimSize(p));
  types.push_back(input.clone(out));
  return success();
}

LogicalResult BroadcastToOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  auto input = cast<RankedTensorType>(adaptor.getInput().getType());
  ArrayRef<int64_t> shape = adaptor.getShape();
  int64_t lead = (int64_t)shape.size() - input.getRank();
  auto refuse = [&]() {
    return emitOptionalError(loc, "'kf.broadcast_to' cannot broadcast ",
                             shapeToString(input.getShape()), " to ", str(shape));
  };
  if (lead < 0)
    return refuse();
  SmallVector<int64_t> out;
  for (auto [i, d] : llvm::enumerate(shape)) {
    int64_t in = (int64_t)i >= lead ? input.getDimSize(i - lead) : 1;
    if (d == -1 && (int64_t)i >= lead)
      out.push_back(in); // -1 keeps the input's dim
    else if (d < 0 || (in != 1 && !ShapedType::isDynamic(in) && in != d))
      return refuse();
    else
      out.push_back(d); // a dynamic input dim is checked at run time
  }
  if (failed(verifyElementCount(loc, "kf.broadcast_to", out)))
    return failure();
  types.push_back(input.clone(out));
  return success();
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto lhs = cast<RankedTensorType>(adaptor.getLhs().getType());
  auto rhs = cast<RankedTensorType>(adaptor.getRhs().getType());
  if (lhs.getRank() < 2 || rhs.getRank() < 2)
    return emitOptionalError(loc, "'kf.matmul' needs operands of rank >= 2, got ",
                             shapeToString(lhs.getShape()), " and ",
                             shapeToString(rhs.getShape()));
  int64_t k1 = lhs.getShape().back();
  int64_t k2 = rhs.getShape().drop_back().back();
  if (!ShapedType::isDynamic(k1) && !ShapedType::isDynamic(k2) && k1 != k2)
    return emitOptionalError(loc, "'kf.matmul' inner dims differ: ",
                             shapeToString(lhs.getShape()), " has ", k1,
                             " columns but ", shapeToString(rhs.getShape()),
                             " has ", k2, " rows");
  auto batch = broadcastShapes(lhs.getShape().drop_back(2),
                               rhs.getShape().drop_back(2));
  if (failed(batch))
    return emitOptionalError(loc, "'kf.matmul' batch dims do not broadcast: ",
                             shapeToString(lhs.getShape()), " and ",
                             shapeToString(rhs.getShape()));
  Type elt = promoteTypes(lhs.getElementType(), rhs.getElementType());
  if (elt.isInteger(1))
    return emitOptionalError(loc, "'kf.matmul' does not support bool operands");
  SmallVector<int64_t> out = *batch;
  out.push_back(lhs.getShape().drop_back().back());
  out.push_back(rhs.getShape().back());
  for (ArrayRef<int64_t> s : {lhs.getShape(), rhs.getShape(), ArrayRef<int64_t>(out)})
    if (failed(verifyElementCount(loc, "kf.matmul", s)))
      return failure();
  types.push_back(RankedTensorType::get(out, elt));
  return success();
}

//===----------------------------------------------------------------------===//
// Composites
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location>,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  types.push_back(cast<RankedTensorType>(adaptor.getInput().getType()));
  return success();
}
LogicalResult SoftmaxOp::verify() {
  return verifyDims(getLoc(), getOperationName(), getInput().getType().getRank(),
                    {static_cast<int64_t>(getDim())});
}

LogicalResult LogSoftmaxOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location>,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  types.push_back(cast<RankedTensorType>(adaptor.getInput().getType()));
  return success();
}
LogicalResult LogSoftmaxOp::verify() {
  return verifyDims(getLoc(), getOperationName(), getInput().getType().getRank(),
                    {static_cast<int64_t>(getDim())});
}

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location>,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  types.push_back(cast<RankedTensorType>(adaptor.getInput().getType()));
  return success();
}

LogicalResult LayerNormOp::verify() {
  auto input = getInput().getType();
  ArrayRef<int64_t> norm = getNormalizedShape();
  if (norm.empty() || (int64_t)norm.size() > input.getRank())
    return emitOpError("normalized_shape ") << str(norm)
           << " must name 1 to " << input.getRank() << " trailing dims of "
           << shapeToString(input.getShape());
  ArrayRef<int64_t> trailing = input.getShape().take_back(norm.size());
  for (auto [d, n] : llvm::zip(trailing, norm))
    if (n <= 0 || (!ShapedType::isDynamic(d) && d != n))
      return emitOpError("normalized_shape ") << str(norm)
             << " does not match the trailing dims of "
             << shapeToString(input.getShape());
  for (Value param : {getWeight(), getBias()}) {
    if (!param)
      continue;
    auto type = cast<RankedTensorType>(param.getType());
    if (type.getShape() != norm)
      return emitOpError(param == getWeight() ? "weight" : "bias")
             << " has shape " << shapeToString(type.getShape())
             << ", expected normalized_shape " << shapeToString(norm);
    if (type.getElementType() != input.getElementType())
      return emitOpError(param == getWeight() ? "weight" : "bias")
             << " dtype " << type.getElementType() << " differs from input dtype "
             << input.getElementType();
  }
  if (getEps().convertToDouble() < 0)
    return emitOpError("eps must not be negative");
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

LogicalResult KernelOp::verify() {
  auto yield = cast<YieldOp>(getBody().front().getTerminator());
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("yields ")
           << yield.getValues().getTypes() << " but its results are "
           << getResultTypes();
  return success();
}
