//===- ErrorRules.h - the rules of kf-float64-reference, inside --*- C++ -*-===//
//
// The rules of each op's error scale (Float64Reference.h), shared by
// ErrorRules.cpp (elementwise ops, casts) and ReductionRules.cpp
// (reductions, softmax, matmul, views). Notation there.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_UTILS_ERRORRULES_H
#define KFUSE_PASSES_UTILS_ERRORRULES_H

#include "passes/utils/Float64Reference.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cmath>
#include <limits>

namespace kfuse::detail {

using namespace mlir;

/// Whether every value of dtype `from` is a value of `to`.
inline bool exactIn(Type from, Type to) {
  if (from == to || from.isInteger(1))
    return true;
  if (isa<FloatType>(from) && isa<FloatType>(to))
    return to.isF64() || (to.isF32() && from.getIntOrFloatBitWidth() < 32);
  return from.isInteger(32) && to.isF64();
}

/// The rules of one op, with its operands and their bounds at hand.
struct Rules {
  BoundBuilder &h;
  Operation *op;
  const OpBounds &in;
  double u;     // unit roundoff of the result's dtype (0: integer, bool)
  Type compute; // the dtype operands are converted to before the op

  Value a(unsigned i = 0) { return op->getOperand(i); }
  Value v() { return in.value; }
  Value inf() { return h.constant(std::numeric_limits<double>::infinity()); }

  /// Operand i's bound, plus its rounding when the op converts it to a
  /// dtype that does not hold it (an f32 0-d operand of an f16 op, a large
  /// integer of a float op).
  Value e(unsigned i) {
    Value bound = in.bounds[i];
    double uc = unitRoundoff(compute);
    if (uc == 0 || exactIn(in.operandTypes[i], compute))
      return bound;
    return h.add(bound, h.scale(h.abs(a(i)), uc));
  }

  /// The op's own error: c u |v| (f16 and bf16: u |v| plus c u_f32 |v|,
  /// computed in f32), plus c u |extra| where cancellation inside the op
  /// makes its error absolute (gelu's 1 + erf).
  Value rounding(double c, Value extra = nullptr) {
    if (u == 0)
      return nullptr;
    double uf32 = std::ldexp(1.0, -24);
    bool half = in.resultType.isF16() || in.resultType.isBF16();
    double k = half ? u / c + uf32 : u;
    Value own = scaledMagnitude(v(), c * k);
    return extra ? h.add(own, scaledMagnitude(extra, c * k)) : own;
  }

  /// factor |x| where x is below the dtype's largest value; +inf where |x|
  /// reaches it (the program may overflow there); 0 where x is infinite (an
  /// infinite result of exact operands, such as a -inf mask, is exact).
  Value scaledMagnitude(Value x, double factor) {
    Value m = h.abs(x);
    Value within = h.lt(m, h.constant(largestFinite(in.resultType)));
    Value beyond = h.where(h.lt(m, inf()), inf(), h.constant(0));
    return h.where(within, h.scale(m, factor), beyond);
  }

  /// |x|, 0 where x is infinite: an infinite result of exact operands (a
  /// -inf mask, exp(-inf)) is exact, not infinitely wrong.
  Value finiteAbs(Value x) {
    Value m = h.abs(x);
    return h.where(h.lt(m, inf()), m, h.constant(0));
  }

  /// Bound of the quotient a / b (its own rounding apart).
  Value quotient(Value ea, Value eb) {
    Value b = h.abs(a(1));
    if (!eb)
      return ea ? h.div(ea, b) : nullptr;
    Value num = h.add(ea, h.mul(h.abs(v()), eb));
    return h.finiteBelow(h.div(num, h.sub(b, eb)), h.scale(eb, kReach), b);
  }

  /// op(x + r) - op(x - r), r = kReach e: the step of a rounding op
  /// (floor, ceil, round) that the error may cross; null when e is.
  template <typename OpTy> Value step(Value x, Value e) {
    if (!e)
      return nullptr;
    Value r = h.scale(e, kReach);
    return h.sub(h.unary<OpTy>(h.add(x, r)), h.unary<OpTy>(h.sub(x, r)));
  }

  FailureOr<Value> elementwise();
  FailureOr<Value> unaryFloat();
  FailureOr<Value> cast();
  FailureOr<Value> reduction();
  FailureOr<Value> matmul();
  FailureOr<Value> view();
  Value softmax(int64_t dim);
};

} // namespace kfuse::detail

#endif // KFUSE_PASSES_UTILS_ERRORRULES_H
