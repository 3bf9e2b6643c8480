//===- ScalarOps.cpp - the scalar semantics of kf elementwise ops ---------===//
//
// One place defines what each elementwise op computes on one element; the
// linalg.generic bodies of kf-to-linalg are built from it.
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfOps.h"
#include "passes/kf-to-linalg/Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace kfuse::kf;

namespace kfuse::lowering {

Value scalarConstant(OpBuilder &b, Location loc, Type type, double value) {
  if (auto f = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(f, value));
  return arith::ConstantOp::create(b, loc,
                                   b.getIntegerAttr(type, (int64_t)value));
}

Value castScalar(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  auto fromF = dyn_cast<FloatType>(from);
  auto toF = dyn_cast<FloatType>(to);
  if (fromF && toF) {
    if (fromF.getWidth() == toF.getWidth()) // f16 <-> bf16 goes through f32
      return castScalar(b, loc, castScalar(b, loc, v, b.getF32Type()), to);
    if (fromF.getWidth() < toF.getWidth())
      return arith::ExtFOp::create(b, loc, to, v);
    return arith::TruncFOp::create(b, loc, to, v);
  }
  if (to.isInteger(1)) { // bool(x) is x != 0; NaN is true
    Value zero = scalarConstant(b, loc, from, 0);
    if (fromF)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v, zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero);
  }
  if (toF)
    return from.isInteger(1) ? Value(arith::UIToFPOp::create(b, loc, to, v))
                             : Value(arith::SIToFPOp::create(b, loc, to, v));
  if (fromF)
    return arith::FPToSIOp::create(b, loc, to, v);
  if (from.isInteger(1))
    return arith::ExtUIOp::create(b, loc, to, v);
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtSIOp::create(b, loc, to, v);
  return arith::TruncIOp::create(b, loc, to, v);
}

Type computeType(Operation *op) {
  Type t;
  if (isa<WhereOp>(op))
    t = getElementTypeOrSelf(op->getResult(0).getType());
  else if (isa<CastOp>(op))
    return getElementTypeOrSelf(op->getOperand(0).getType());
  else
    t = resultElementType(op->getOperandTypes());
  MLIRContext *ctx = op->getContext();
  // Ops whose result is float compute in float even on integer operands.
  Type result = getElementTypeOrSelf(op->getResult(0).getType());
  if (isa<FloatType>(result) && !isa<FloatType>(t))
    t = result;
  if (t.isF16() || t.isBF16())
    return Float32Type::get(ctx);
  return t;
}

namespace {
/// Builds one op of the float, integer or bool flavour, by compute type.
template <typename FOp, typename IOp, typename BOp = IOp>
Value arith3(OpBuilder &b, Location loc, Value x, Value y) {
  Type t = x.getType();
  if (isa<FloatType>(t))
    return FOp::create(b, loc, x, y);
  if (t.isInteger(1))
    return BOp::create(b, loc, x, y);
  return IOp::create(b, loc, x, y);
}

Value compare(OpBuilder &b, Location loc, Value x, Value y,
              arith::CmpFPredicate fp, arith::CmpIPredicate sp,
              arith::CmpIPredicate up) {
  Type t = x.getType();
  if (isa<FloatType>(t))
    return arith::CmpFOp::create(b, loc, fp, x, y);
  return arith::CmpIOp::create(b, loc, t.isInteger(1) ? up : sp, x, y);
}

Value sigmoid(OpBuilder &b, Location loc, Value x) {
  Value one = scalarConstant(b, loc, x.getType(), 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one, arith::AddFOp::create(b, loc, one, e));
}
/// Integer x ** y. math.ipowi's expansion divides by zero for 0 ** -n
/// (undefined behaviour, garbage on the CPU and the GPU alike), so negative
/// exponents are decided here: 1 ** -n = 1, (-1) ** -n = +-1, otherwise 0
/// (PyTorch refuses negative integer exponents); ipowi only sees n >= 0.
Value integerPow(OpBuilder &b, Location loc, Value x, Value y) {
  Type t = x.getType();
  auto c = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, t, v).getResult(); };
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, y, c(0));
  Value power = math::IPowIOp::create(b, loc, x, arith::MaxSIOp::create(b, loc, y, c(0)));
  Value odd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                    arith::AndIOp::create(b, loc, y, c(1)), c(0));
  Value minusOne = arith::SelectOp::create(b, loc, odd, c(-1), c(1));
  Value isOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, c(1));
  Value isMinusOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, c(-1));
  Value small = arith::SelectOp::create(
      b, loc, isOne, c(1), arith::SelectOp::create(b, loc, isMinusOne, minusOne, c(0)));
  return arith::SelectOp::create(b, loc, negative, small, power);
}

/// Python's floor division and modulo of integers, without the undefined
/// behaviour of arith.divsi (a divisor of 0, INT_MIN / -1): a divisor of 0
/// gives 0 for both (numpy's choice; PyTorch raises on the CPU), -1 gives
/// -x (wrapping) and 0.
std::pair<Value, Value> integerFloorDivMod(OpBuilder &b, Location loc, Value x,
                                           Value y) {
  using CI = arith::CmpIPredicate;
  Type t = x.getType();
  auto c = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, t, v).getResult(); };
  Value zero = c(0);
  Value byZero = arith::CmpIOp::create(b, loc, CI::eq, y, zero);
  Value byMinusOne = arith::CmpIOp::create(b, loc, CI::eq, y, c(-1));
  Value safe = arith::SelectOp::create(
      b, loc, arith::OrIOp::create(b, loc, byZero, byMinusOne), c(1), y);
  Value q = arith::DivSIOp::create(b, loc, x, safe);
  q = arith::SelectOp::create(b, loc, byMinusOne,
                              arith::SubIOp::create(b, loc, zero, x), q);
  Value r = arith::RemSIOp::create(b, loc, x, safe); // 0 for y in {0, -1}
  // Truncation rounded toward zero: step down when the remainder's sign
  // differs from the divisor's.
  Value adjust = arith::AndIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, CI::ne, r, zero),
      arith::XOrIOp::create(b, loc, arith::CmpIOp::create(b, loc, CI::slt, r, zero),
                            arith::CmpIOp::create(b, loc, CI::slt, y, zero)));
  q = arith::SelectOp::create(b, loc, adjust, arith::SubIOp::create(b, loc, q, c(1)), q);
  q = arith::SelectOp::create(b, loc, byZero, zero, q);
  r = arith::SelectOp::create(b, loc, adjust, arith::AddIOp::create(b, loc, r, y), r);
  return {q, r};
}

/// torch.remainder of floats: fmod, plus the divisor when the signs differ.
Value floatRemainder(OpBuilder &b, Location loc, Value x, Value y) {
  using CF = arith::CmpFPredicate;
  Value zero = scalarConstant(b, loc, x.getType(), 0);
  Value mod = arith::RemFOp::create(b, loc, x, y);
  Value adjust = arith::AndIOp::create(
      b, loc, arith::CmpFOp::create(b, loc, CF::UNE, mod, zero),
      arith::XOrIOp::create(b, loc, arith::CmpFOp::create(b, loc, CF::OLT, y, zero),
                            arith::CmpFOp::create(b, loc, CF::OLT, mod, zero)));
  return arith::SelectOp::create(b, loc, adjust, arith::AddFOp::create(b, loc, mod, y), mod);
}

/// torch.floor_divide of floats, as PyTorch's div_floor_floating: the
/// quotient computed from fmod (exact), stepped down when the signs of the
/// remainder and the divisor differ, floored, and rounded up when the
/// floor is more than half below it; a zero quotient keeps the sign of
/// a / b; a divisor of 0 gives a / b.
Value floatFloorDivide(OpBuilder &b, Location loc, Value x, Value y) {
  using CF = arith::CmpFPredicate;
  Type t = x.getType();
  auto c = [&](double v) { return scalarConstant(b, loc, t, v); };
  Value quotient = arith::DivFOp::create(b, loc, x, y);
  Value mod = arith::RemFOp::create(b, loc, x, y);
  Value div = arith::DivFOp::create(b, loc, arith::SubFOp::create(b, loc, x, mod), y);
  Value adjust = arith::AndIOp::create(
      b, loc, arith::CmpFOp::create(b, loc, CF::UNE, mod, c(0)),
      arith::XOrIOp::create(b, loc, arith::CmpFOp::create(b, loc, CF::OLT, y, c(0)),
                            arith::CmpFOp::create(b, loc, CF::OLT, mod, c(0))));
  div = arith::SelectOp::create(b, loc, adjust, arith::SubFOp::create(b, loc, div, c(1)), div);
  Value floored = math::FloorOp::create(b, loc, div);
  Value roundUp = arith::CmpFOp::create(
      b, loc, CF::OGT, arith::SubFOp::create(b, loc, div, floored), c(0.5));
  floored = arith::SelectOp::create(b, loc, roundUp,
                                    arith::AddFOp::create(b, loc, floored, c(1)), floored);
  Value signedZero = math::CopySignOp::create(b, loc, c(0), quotient);
  Value isZero = arith::CmpFOp::create(b, loc, CF::OEQ, div, c(0));
  Value result = arith::SelectOp::create(b, loc, isZero, signedZero, floored);
  Value byZero = arith::CmpFOp::create(b, loc, CF::OEQ, y, c(0));
  return arith::SelectOp::create(b, loc, byZero, quotient, result);
}

/// torch.clamp with scalar bounds. For floats it is x < lo ? lo : x, then
/// x > hi ? hi : x, as PyTorch's min(max(x, lo), hi) whose comparisons
/// return x on a tie: clamp(-0.0, 0.0, 6.0) is -0.0 (maximumf would order
/// the zeros and give +0.0). A NaN element fails both compares and stays
/// NaN; a NaN bound makes every element NaN (torch.clamp propagates it);
/// min > max gives max everywhere but at NaN.
Value clamp(OpBuilder &b, Location loc, ClampOp op, Value x) {
  using CF = arith::CmpFPredicate;
  Type t = x.getType();
  auto bound = [&](Attribute a) {
    if (auto f = dyn_cast<FloatAttr>(a))
      return scalarConstant(b, loc, t, f.getValueAsDouble());
    int64_t v = cast<IntegerAttr>(a).getInt();
    if (isa<FloatType>(t))
      return scalarConstant(b, loc, t, (double)v);
    return arith::ConstantIntOp::create(b, loc, t, v).getResult();
  };
  auto isNaN = [](Attribute a) {
    auto f = dyn_cast_or_null<FloatAttr>(a);
    return f && f.getValue().isNaN();
  };
  Attribute lo = op.getMinAttr(), hi = op.getMaxAttr();
  if (!isa<FloatType>(t)) {
    if (lo)
      x = arith::MaxSIOp::create(b, loc, x, bound(lo));
    if (hi)
      x = arith::MinSIOp::create(b, loc, x, bound(hi));
    return x;
  }
  if (isNaN(lo) || isNaN(hi))
    return scalarConstant(b, loc, t, std::nan(""));
  if (lo) {
    Value l = bound(lo);
    x = arith::SelectOp::create(b, loc, arith::CmpFOp::create(b, loc, CF::OLT, x, l), l, x);
  }
  if (hi) {
    Value h = bound(hi);
    x = arith::SelectOp::create(b, loc, arith::CmpFOp::create(b, loc, CF::OGT, x, h), h, x);
  }
  return x;
}
} // namespace

Value buildElementwiseScalar(OpBuilder &b, Location loc, Operation *op,
                             ValueRange args) {
  using CF = arith::CmpFPredicate;
  using CI = arith::CmpIPredicate;
  Value x = args[0];
  Value y = args.size() > 1 ? args[1] : Value();
  Type t = x.getType();
  auto c = [&](double v) { return scalarConstant(b, loc, t, v); };
  Value r =
      llvm::TypeSwitch<Operation *, Value>(op)
          .Case([&](AddOp) {
            return arith3<arith::AddFOp, arith::AddIOp, arith::OrIOp>(b, loc, x, y);
          })
          .Case([&](SubOp) {
            return arith3<arith::SubFOp, arith::SubIOp>(b, loc, x, y);
          })
          .Case([&](MulOp) {
            return arith3<arith::MulFOp, arith::MulIOp, arith::AndIOp>(b, loc, x, y);
          })
          .Case([&](DivOp) { return arith::DivFOp::create(b, loc, x, y); })
          .Case([&](MaximumOp) {
            return arith3<arith::MaximumFOp, arith::MaxSIOp, arith::OrIOp>(b, loc, x, y);
          })
          .Case([&](MinimumOp) {
            return arith3<arith::MinimumFOp, arith::MinSIOp, arith::AndIOp>(b, loc, x, y);
          })
          .Case([&](PowOp) {
            if (isa<IntegerType>(x.getType()))
              return integerPow(b, loc, x, y);
            return arith3<math::PowFOp, math::IPowIOp>(b, loc, x, y);
          })
          .Case([&](EqOp) { return compare(b, loc, x, y, CF::OEQ, CI::eq, CI::eq); })
          .Case([&](NeOp) { return compare(b, loc, x, y, CF::UNE, CI::ne, CI::ne); })
          .Case([&](LtOp) { return compare(b, loc, x, y, CF::OLT, CI::slt, CI::ult); })
          .Case([&](LeOp) { return compare(b, loc, x, y, CF::OLE, CI::sle, CI::ule); })
          .Case([&](GtOp) { return compare(b, loc, x, y, CF::OGT, CI::sgt, CI::ugt); })
          .Case([&](GeOp) { return compare(b, loc, x, y, CF::OGE, CI::sge, CI::uge); })
          .Case([&](WhereOp) {
            return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
          })
          .Case([&](NegOp) -> Value {
            if (isa<FloatType>(t))
              return arith::NegFOp::create(b, loc, x);
            return arith::SubIOp::create(b, loc, c(0), x);
          })
          .Case([&](AbsOp) -> Value {
            if (isa<FloatType>(t))
              return math::AbsFOp::create(b, loc, x);
            return math::AbsIOp::create(b, loc, x);
          })
          .Case([&](ReluOp) -> Value {
            if (!isa<FloatType>(t))
              return arith::MaxSIOp::create(b, loc, x, c(0));
            // x < 0 ? +0 : x, as torch.relu computes it: NaN stays NaN and
            // -0 stays -0 (maximumf(x, 0) would give +0), in one compare and
            // one select; maximumf's lowering also orders signed zeros and
            // checks NaN on every element, a long sequence for x86-64-v3.
            Value zero = c(0);
            Value negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero);
            return arith::SelectOp::create(b, loc, negative, zero, x);
          })
          .Case([&](ExpOp) { return math::ExpOp::create(b, loc, x); })
          .Case([&](LogOp) { return math::LogOp::create(b, loc, x); })
          .Case([&](SqrtOp) { return math::SqrtOp::create(b, loc, x); })
          .Case([&](RsqrtOp) { return math::RsqrtOp::create(b, loc, x); })
          .Case([&](TanhOp) { return math::TanhOp::create(b, loc, x); })
          .Case([&](SinOp) { return math::SinOp::create(b, loc, x); })
          .Case([&](CosOp) { return math::CosOp::create(b, loc, x); })
          .Case([&](SigmoidOp) { return sigmoid(b, loc, x); })
          .Case([&](ReciprocalOp) { return arith::DivFOp::create(b, loc, c(1), x); })
          .Case([&](SiluOp) { return arith::MulFOp::create(b, loc, x, sigmoid(b, loc, x)); })
          .Case([&](GeluOp) {
            // 0.5 * x * (1 + erf(x / sqrt(2))), PyTorch's exact GELU.
            Value erf = math::ErfOp::create(
                b, loc, arith::MulFOp::create(b, loc, x, c(M_SQRT1_2)));
            Value half = arith::MulFOp::create(b, loc, x, c(0.5));
            return arith::MulFOp::create(
                b, loc, half, arith::AddFOp::create(b, loc, c(1), erf));
          })
          .Case([&](Exp2Op) { return math::Exp2Op::create(b, loc, x); })
          .Case([&](Log1pOp) { return math::Log1pOp::create(b, loc, x); })
          // Each target's accurate expm1: libdevice's __nv_expm1f on the
          // GPU, kf-host-math's f64 code on the CPU.
          .Case([&](Expm1Op) { return math::ExpM1Op::create(b, loc, x); })
          .Case([&](ErfOp) { return math::ErfOp::create(b, loc, x); })
          // An integer is its own floor, ceil and round (as in PyTorch).
          .Case([&](FloorOp) -> Value {
            return isa<FloatType>(t) ? math::FloorOp::create(b, loc, x) : x;
          })
          .Case([&](CeilOp) -> Value {
            return isa<FloatType>(t) ? math::CeilOp::create(b, loc, x) : x;
          })
          .Case([&](RoundOp) -> Value { // halves to even, as torch.round
            return isa<FloatType>(t) ? math::RoundEvenOp::create(b, loc, x) : x;
          })
          .Case([&](RemainderOp) -> Value {
            if (isa<FloatType>(t))
              return floatRemainder(b, loc, x, y);
            return integerFloorDivMod(b, loc, x, y).second;
          })
          .Case([&](FloorDivideOp) -> Value {
            if (isa<FloatType>(t))
              return floatFloorDivide(b, loc, x, y);
            return integerFloorDivMod(b, loc, x, y).first;
          })
          .Case([&](ClampOp op) { return clamp(b, loc, op, x); })
          .Case([&](CastOp) { return x; })
          .Default([](Operation *) { return Value(); });
  if (!r)
    return r;
  return castScalar(b, loc, r, getElementTypeOrSelf(op->getResult(0).getType()));
}

} // namespace kfuse::lowering
