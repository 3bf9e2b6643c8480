//===- Float64Reference.h - kf-float64-reference's rules --------*- C++ -*-===//
//
// kf-float64-reference (passes/Passes.td) promotes a kf program to f64 and
// computes, beside each value v, a bound E on |v_w - v| where v_w is the
// value the program computes in its working precision, in any order of
// evaluation. The rules (ErrorRules.cpp) are first-order running error
// analysis (Wilkinson; Higham, "Accuracy and Stability of Numerical
// Algorithms", ch. 3): each op's bound is its operands' bounds propagated
// through the op (at the worse end of the operand interval where the
// derivative grows, so that poles give an infinite bound rather than a
// small wrong one) plus the op's own rounding.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_UTILS_FLOAT64REFERENCE_H
#define KFUSE_PASSES_UTILS_FLOAT64REFERENCE_H

#include "passes/utils/BoundBuilder.h"

#include "mlir/IR/Operation.h"

namespace kfuse {

/// The bounds are error scales (ErrorRules.cpp): kfuse-run --check allows
/// kReach times them, and where an op may jump (a comparison or a rounding
/// that may flip, a pole within the error) the rules look that far.
constexpr double kReach = 8;

/// What the rules know about one op of the promoted program.
struct OpBounds {
  /// The value the bound is for (the op's result; for a cast to a narrower
  /// float, the widened rounding).
  mlir::Value value;
  /// Each operand's bound (null: exactly 0) and dtype in the original program.
  llvm::ArrayRef<mlir::Value> bounds;
  llvm::ArrayRef<mlir::Type> operandTypes;
  /// The result's dtype in the original program.
  mlir::Type resultType;
  /// f32 matmuls run as TF32.
  bool tf32 = false;
};

/// The bound of `op`'s result, built at the builder's insertion point: null
/// when the result is exact; failure (reported on the op) for an op without
/// a rule.
mlir::FailureOr<mlir::Value> errorBound(BoundBuilder &h, mlir::Operation *op,
                                        const OpBounds &in);

/// Sets the result types of `op` from its operands (kf ops infer them;
/// tensor.cast keeps its shape and takes its source's dtype).
mlir::LogicalResult retype(mlir::Operation *op);

} // namespace kfuse

#endif // KFUSE_PASSES_UTILS_FLOAT64REFERENCE_H
