//===- KfTypeRules.h - broadcasting and dtype promotion ---------*- C++ -*-===//
//
// The shape and dtype rules of PyTorch, shared by the verifiers (result type
// inference) and by the lowering (which must agree with them exactly).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_DIALECT_KF_KFTYPERULES_H
#define KFUSE_DIALECT_KF_KFTYPERULES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TypeRange.h"
#include "mlir/Support/LLVM.h"
#include <optional>

namespace kfuse::kf {

/// How an op derives its result dtype from its operands' dtypes.
enum class DtypeRule {
  Promote,       // torch.result_type of the operands
  PromoteNoBool, // as Promote, but a bool result is refused (sub, pow)
  TrueDivide,    // as Promote, but integers and bool give f32 (div)
  Compare,       // operands promote, the result is bool
  Select,        // where(cond, a, b): cond is bool, result promotes a and b
  Same,          // the input dtype
  SameNoBool,    // the input dtype; bool refused (neg, abs, relu)
  FloatOrF32,    // a float input keeps its dtype; ints and bool give f32
  FloatOnly,     // floating-point inputs only, dtype kept
  SumPromote,    // sum: ints and bool accumulate and return i64
};

/// One of the dtypes kf supports: f32, f16, bf16, f64, i32, i64, i1.
bool isKfElementType(mlir::Type type);

/// PyTorch's promotion of two dtypes (torch.promote_types).
mlir::Type promoteTypes(mlir::Type a, mlir::Type b);

/// torch.result_type over tensor operands, where 0-d tensors only win when
/// they are of a higher category (bool < int < float) than every
/// dimensioned operand.
mlir::Type resultElementType(mlir::TypeRange operandTypes);

/// The broadcast of two shapes (see the dialect description for how a
/// dynamic dim broadcasts). Fails when two static sizes differ and neither
/// is 1.
mlir::FailureOr<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// Refuses a static shape with more than 2^63 - 1 elements (PyTorch's
/// limit; beyond it element counts overflow). Dynamic dims are not counted.
llvm::LogicalResult verifyElementCount(std::optional<mlir::Location> loc,
                                       llvm::StringRef op,
                                       llvm::ArrayRef<int64_t> shape);

/// What is wrong with the size of `type`, or nothing: a ranked tensor whose
/// static dims multiply to more than 2^63 - 1 elements, or whose bytes (at
/// its element type's width, a bool taking one byte) are more than
/// 2^63 - 1 (no buffer of it can be allocated or indexed; kfuse-run would
/// size it as a wrapped number). Dynamic dims are not counted.
std::optional<std::string> tensorSizeProblem(mlir::Type type);

/// Refuses, on `op`, any tensor of its operands and results with a
/// tensorSizeProblem, and on its function any such argument or result.
llvm::LogicalResult verifyTensorSizes(mlir::Operation *op);

/// Ops whose tensors must have a size that fits in int64 (every kf op).
template <typename ConcreteType>
class SizesFit : public mlir::OpTrait::TraitBase<ConcreteType, SizesFit> {
public:
  static llvm::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyTensorSizes(op);
  }
};

/// Shape text for diagnostics: "4x?x8" or "scalar".
std::string shapeToString(llvm::ArrayRef<int64_t> shape);

/// Result type of an elementwise op; emits a located error on failure.
llvm::LogicalResult
inferElementwiseResult(std::optional<mlir::Location> loc, llvm::StringRef op,
                       mlir::TypeRange operandTypes, DtypeRule rule,
                       llvm::SmallVectorImpl<mlir::Type> &results);

/// Result type of a reduction; emits a located error on failure.
llvm::LogicalResult
inferReductionResult(std::optional<mlir::Location> loc, llvm::StringRef op,
                     mlir::Type inputType,
                     std::optional<llvm::ArrayRef<int64_t>> dims, bool keepdim,
                     DtypeRule rule, llvm::SmallVectorImpl<mlir::Type> &results);

/// The result dtype of torch.clamp(x, min, max) with scalar bounds (each an
/// IntegerAttr, a FloatAttr or null, not both null): a float bound on an
/// integer tensor gives f32 (a Python float against an int tensor), else the
/// tensor's dtype, which an integer bound must fit; bool is refused. Emits a
/// located error on failure.
mlir::FailureOr<mlir::Type> clampResultType(std::optional<mlir::Location> loc,
                                            mlir::Type input,
                                            mlir::Attribute min,
                                            mlir::Attribute max);

/// Checks `dims` against `rank` (range, duplicates); emits a located error.
llvm::LogicalResult verifyDims(std::optional<mlir::Location> loc,
                               llvm::StringRef op, int64_t rank,
                               llvm::ArrayRef<int64_t> dims);

/// The reduced dims of a verified reduction: non-negative, sorted; all dims
/// when `dims` is absent or empty.
llvm::SmallVector<int64_t>
normalizeReduceDims(int64_t rank, std::optional<llvm::ArrayRef<int64_t>> dims);

} // namespace kfuse::kf

#endif // KFUSE_DIALECT_KF_KFTYPERULES_H
