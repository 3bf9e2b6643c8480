//===- BoundBuilder.cpp - kf arithmetic on error bounds -------------------===//
#include "passes/utils/BoundBuilder.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace kfuse;
using namespace kfuse::kf;

double kfuse::unitRoundoff(Type t) {
  if (t.isF16())
    return std::ldexp(1.0, -11);
  if (t.isBF16())
    return std::ldexp(1.0, -8);
  if (t.isF32())
    return std::ldexp(1.0, -24);
  if (t.isF64())
    return std::ldexp(1.0, -52);
  return 0;
}

double kfuse::largestFinite(Type t) {
  if (t.isF16())
    return 65504.0;
  if (t.isBF16())
    return 3.3895313892515355e38;
  if (t.isF32())
    return std::numeric_limits<float>::max();
  if (t.isF64())
    return std::numeric_limits<double>::max();
  return std::numeric_limits<double>::infinity();
}

static Type elementType(Value x) {
  return cast<RankedTensorType>(x.getType()).getElementType();
}

Value BoundBuilder::constant(double v) {
  auto type = RankedTensorType::get({}, b.getF64Type());
  return ConstantOp::create(b, loc, DenseElementsAttr::get(type, b.getF64FloatAttr(v)));
}

Value BoundBuilder::f64(Value x) {
  if (elementType(x).isF64())
    return x;
  return CastOp::create(b, loc, x, TypeAttr::get(b.getF64Type()));
}

Value BoundBuilder::zerosLike(Value like) {
  // eq(x, x) has x's shape; both branches are 0, so NaN (false) is 0 too.
  Value zero = constant(0.0);
  return WhereOp::create(b, loc, EqOp::create(b, loc, like, like), zero, zero);
}

Value BoundBuilder::add(Value x, Value y) {
  if (!x)
    return y;
  if (!y)
    return x;
  return AddOp::create(b, loc, f64(x), f64(y));
}

Value BoundBuilder::mul(Value x, Value y) {
  if (!x || !y)
    return nullptr;
  return MulOp::create(b, loc, f64(x), f64(y));
}

Value BoundBuilder::scale(Value x, double k) {
  if (!x || k == 0)
    return nullptr;
  if (k == 1)
    return f64(x);
  return MulOp::create(b, loc, f64(x), constant(k));
}

Value BoundBuilder::max(Value x, Value y) {
  // Bounds are >= 0, so max(0, y) is y.
  if (!x)
    return y;
  if (!y)
    return x;
  return MaximumOp::create(b, loc, f64(x), f64(y));
}

Value BoundBuilder::abs(Value x) { return AbsOp::create(b, loc, f64(x)); }
Value BoundBuilder::sub(Value x, Value y) { return SubOp::create(b, loc, f64(x), f64(y)); }
Value BoundBuilder::div(Value x, Value y) { return DivOp::create(b, loc, f64(x), f64(y)); }
Value BoundBuilder::min(Value x, Value y) {
  return MinimumOp::create(b, loc, f64(x), f64(y));
}
Value BoundBuilder::lt(Value x, Value y) { return LtOp::create(b, loc, f64(x), f64(y)); }
Value BoundBuilder::le(Value x, Value y) { return LeOp::create(b, loc, f64(x), f64(y)); }
Value BoundBuilder::ne(Value x, Value y) { return NeOp::create(b, loc, f64(x), f64(y)); }
Value BoundBuilder::where(Value cond, Value x, Value y) {
  return WhereOp::create(b, loc, cond, f64(x), f64(y));
}

Value BoundBuilder::castThrough(Value x, Type elementType) {
  Value narrowed = CastOp::create(b, loc, f64(x), TypeAttr::get(elementType));
  return f64(narrowed);
}

Value BoundBuilder::finiteBelow(Value value, Value x, Value limit) {
  return where(lt(x, limit), value, constant(std::numeric_limits<double>::infinity()));
}

Value BoundBuilder::sqrt(Value x) { return SqrtOp::create(b, loc, f64(x)); }

Value BoundBuilder::count(Value input, ArrayRef<int64_t> dims, bool keepdim) {
  auto type = cast<RankedTensorType>(input.getType());
  double n = 1;
  for (int64_t d : dims) {
    if (type.isDynamicDim(d)) {
      // At run time: a sum of ones over the same dims (where(eq(x, x), 1,
      // 1) has x's shape whatever x holds).
      Value one = constant(1.0);
      Value ones = WhereOp::create(b, loc, EqOp::create(b, loc, input, input), one, one);
      return SumOp::create(b, loc, ones, b.getDenseI64ArrayAttr(dims),
                           keepdim ? b.getUnitAttr() : nullptr);
    }
    n *= double(type.getDimSize(d));
  }
  return constant(n);
}
