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

/// The checks layer_norm and rms_norm share: `norm` names 1 to rank
/// trailing dims of `input`, and each parameter (weight, bias) has shape
/// `norm` and the input's dtype.
static LogicalResult
verifyNormalization(Operation *op, RankedTensorType input, ArrayRef<int64_t> norm,
                    ArrayRef<std::pair<Value, StringRef>> params) {
  auto error = [&]() { return op->emitOpError(); };
  if (norm.empty() || (int64_t)norm.size() > input.getRank())
    return error() << "normalized_shape " << str(norm) << " must name 1 to "
                   << input.getRank() << " trailing dims of "
                   << shapeToString(input.getShape());
  ArrayRef<int64_t> trailing = input.getShape().take_back(norm.size());
  for (auto [d, n] : llvm::zip(trailing, norm))
    if (n <= 0 || (!ShapedType::isDynamic(d) && d != n))
      return error() << "normalized_shape " << str(norm)
                     << " does not match the trailing dims of "
                     << shapeToString(input.getShape());
  for (auto [param, name] : params) {
    if (!param)
      continue;
    auto type = cast<RankedTensorType>(param.getType());
    if (type.getShape() != norm)
      return error() << name << " has shape " << shapeToString(type.getShape())
                     << ", expected normalized_shape " << shapeToString(norm);
    if (type.getElementType() != input.getElementType())
      return error() << name << " dtype " << type.getElementType()
                     << " differs from input dtype " << input.getElementType();
  }
  return success();
}

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location>,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  types.push_back(cast<RankedTensorType>(adaptor.getInput().getType()));
  return success();
}

LogicalResult LayerNormOp::verify() {
  if (failed(verifyNormalization(*this, getInput().getType(),
                                 getNormalizedShape(),
                                 {{getWeight(), "weight"}, {getBias(), "bias"}})))
    return failure();
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
  // A variant is a design of its mapping (KfAttrs.td): a matmul's tile
  // design, a row kernel's on-chip or through-memory form.
  if (std::optional<KernelVariant> variant = getVariant()) {
    bool matmulDesign = *variant == KernelVariant::TensorCore ||
                        *variant == KernelVariant::Wgmma || *variant == KernelVariant::Simt ||
                        *variant == KernelVariant::Reference;
    bool rows = getMapping() == KernelMapping::Row || getMapping() == KernelMapping::RowChain;
    if (matmulDesign ? getMapping() != KernelMapping::Matmul : !rows)
      return emitOpError("has variant '")
             << stringifyKernelVariant(*variant) << "', which only a kernel of mapping "
             << (matmulDesign ? "matmul" : "row or row_chain") << " can have";
  }
  // The tiles are the tensor-core kernel's strategy, and only its.
  if (getTiles() && getVariant() != KernelVariant::TensorCore)
    return emitOpError("has matmul tiles, which only a kernel of variant 'tensor_core' can have");
  return success();
}

//===----------------------------------------------------------------------===//
// ClampOp
//===----------------------------------------------------------------------===//

LogicalResult ClampOp::inferReturnTypes(MLIRContext *ctx,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  auto input = cast<RankedTensorType>(adaptor.getInput().getType());
  Attribute lo = adaptor.getMinAttr(), hi = adaptor.getMaxAttr();
  auto type = clampResultType(loc, input.getElementType(), lo, hi);
  if (failed(type))
    return failure();
  types.push_back(input.clone(*type));
  return success();
}

//===----------------------------------------------------------------------===//
// ArgmaxOp, ArgminOp
//===----------------------------------------------------------------------===//

/// The result type of argmax/argmin: i64, the reduced dim dropped (kept as
/// 1 with keepdim); without a dim, of the flattened tensor.
static LogicalResult inferArgExtreme(std::optional<Location> loc,
                                     StringRef op, Type inputType,
                                     std::optional<uint64_t> udim, bool keepdim,
                                     SmallVectorImpl<Type> &types) {
  auto input = cast<RankedTensorType>(inputType);
  Type i64 = IntegerType::get(input.getContext(), 64);
  if (input.getElementType().isInteger(1))
    return emitOptionalError(loc, "'", op,
                             "' does not support bool inputs (as torch.",
                             op.drop_front(3), ")");
  std::optional<int64_t> dim;
  if (udim)
    dim = static_cast<int64_t>(*udim); // I64Attr's getter is unsigned
  SmallVector<int64_t> shape;
  if (!dim) {
    if (keepdim)
      shape.assign(input.getRank(), 1);
  } else {
    if (failed(verifyDims(loc, op, input.getRank(), {*dim})))
      return failure();
    int64_t d = *dim < 0 ? *dim + std::max<int64_t>(input.getRank(), 1) : *dim;
    for (int64_t i = 0; i < input.getRank(); ++i)
      if (i != d)
        shape.push_back(input.getDimSize(i));
      else if (keepdim)
        shape.push_back(1);
  }
  types.push_back(RankedTensorType::get(shape, i64));
  return success();
}

/// Refuses what kf-decompose cannot write out: an empty or dynamic dim
/// (its index constant needs the size; PyTorch raises on an empty one).
template <typename OpTy> static LogicalResult verifyArgExtreme(OpTy op) {
  auto input = op.getInput().getType();
  SmallVector<int64_t> dims;
  if (auto dim = op.getDim()) {
    int64_t d = static_cast<int64_t>(*dim); // I64Attr's getter is unsigned
    if (input.getRank() > 0)
      dims.push_back(d < 0 ? d + input.getRank() : d);
  } else {
    for (int64_t i = 0; i < input.getRank(); ++i)
      dims.push_back(i);
  }
  for (int64_t d : dims) {
    if (input.isDynamicDim(d))
      return op.emitOpError("reduces over dynamic dim ")
             << d << " of " << shapeToString(input.getShape())
             << ": not supported (the index constant needs a static size)";
    if (input.getDimSize(d) == 0)
      return op.emitOpError("reduces over dim ")
             << d << " of size 0: an empty dim has no extreme (torch raises)";
  }
  return success();
}

LogicalResult ArgmaxOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  return inferArgExtreme(loc, "kf.argmax", adaptor.getInput().getType(),
                         adaptor.getDim(), adaptor.getKeepdim(), types);
}
LogicalResult ArgmaxOp::verify() { return verifyArgExtreme(*this); }

LogicalResult ArgminOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  return inferArgExtreme(loc, "kf.argmin", adaptor.getInput().getType(),
                         adaptor.getDim(), adaptor.getKeepdim(), types);
}
LogicalResult ArgminOp::verify() { return verifyArgExtreme(*this); }

//===----------------------------------------------------------------------===//
// CatOp
//===----------------------------------------------------------------------===//

LogicalResult CatOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  TypeRange inputs = adaptor.getInputs().getTypes();
  if (inputs.empty())
    return emitOptionalError(loc, "'kf.cat' needs at least one tensor");
  auto first = cast<RankedTensorType>(inputs.front());
  int64_t rank = first.getRank();
  if (rank == 0)
    return emitOptionalError(loc, "'kf.cat' cannot join 0-d tensors (as "
                                  "torch.cat: zero-dimensional tensors cannot "
                                  "be concatenated)");
  int64_t dim = static_cast<int64_t>(adaptor.getDim());
  if (failed(verifyDims(loc, "kf.cat", rank, {dim})))
    return failure();
  if (dim < 0)
    dim += rank;
  SmallVector<int64_t> shape(first.getShape());
  shape[dim] = 0;
  for (auto [k, t] : llvm::enumerate(inputs)) {
    auto type = cast<RankedTensorType>(t);
    if (type.getRank() != rank)
      return emitOptionalError(loc, "'kf.cat' tensor #", k, " has rank ",
                               type.getRank(), ", tensor #0 has rank ", rank);
    for (int64_t i = 0; i < rank; ++i) {
      int64_t d = type.getDimSize(i);
      if (i == dim) {
        if (ShapedType::isDynamic(d))
          return emitOptionalError(
              loc, "'kf.cat' tensor #", k, " (", shapeToString(type.getShape()),
              ") is dynamic along the joined dim ", dim,
              ": not supported (each tensor's place in the result must be "
              "static)");
        shape[i] += d;
        continue;
      }
      if (ShapedType::isDynamic(shape[i]))
        shape[i] = d; // a static size wins; equality checked at run time
      else if (!ShapedType::isDynamic(d) && d != shape[i])
        return emitOptionalError(loc, "'kf.cat' tensor #", k, " (",
                                 shapeToString(type.getShape()),
                                 ") differs from the others in dim ", i,
                                 " (expected ", shape[i], ")");
    }
  }
  if (failed(verifyElementCount(loc, "kf.cat", shape)))
    return failure();
  types.push_back(RankedTensorType::get(shape, resultElementType(inputs)));
  return success();
}

//===----------------------------------------------------------------------===//
// RmsNormOp, BatchNormOp
//===----------------------------------------------------------------------===//

LogicalResult RmsNormOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location>,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  types.push_back(cast<RankedTensorType>(adaptor.getInput().getType()));
  return success();
}

LogicalResult RmsNormOp::verify() {
  if (failed(verifyNormalization(*this, getInput().getType(),
                                 getNormalizedShape(), {{getWeight(), "weight"}})))
    return failure();
  if (auto eps = getEps(); eps && eps->convertToDouble() < 0)
    return emitOpError("eps must not be negative");
  return success();
}

LogicalResult BatchNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location>,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  types.push_back(cast<RankedTensorType>(adaptor.getInput().getType()));
  return success();
}

LogicalResult BatchNormOp::verify() {
  auto input = getInput().getType();
  if (input.getRank() < 2)
    return emitOpError("needs an input [N, C, ...] of rank 2 or more, got ")
           << shapeToString(input.getShape());
  int64_t channels = input.getDimSize(1);
  std::pair<Value, StringRef> params[] = {{getRunningMean(), "running_mean"},
                                          {getRunningVar(), "running_var"},
                                          {getWeight(), "weight"},
                                          {getBias(), "bias"}};
  for (auto [v, name] : params) {
    if (!v)
      continue;
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getRank() != 1 ||
        (!type.isDynamicDim(0) && !ShapedType::isDynamic(channels) &&
         type.getDimSize(0) != channels))
      return emitOpError() << name << " has shape "
                           << shapeToString(type.getShape())
                           << ", expected [C] with C = dim 1 of "
                           << shapeToString(input.getShape());
  }
  if (getEps().convertToDouble() < 0)
    return emitOpError("eps must not be negative");
  return success();
}
