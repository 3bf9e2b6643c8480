//===- ErrorRules.cpp - each kf op's error scale --------------------------===//
//
// Notation: a, b are the operands (their float64 values), Ea, Eb their
// error scales, v the result, u the unit roundoff of the result's dtype D.
// An op's scale is its operands' scales carried through the op, plus the
// op's own error in D. Elementwise, scales add (|x + y| <= |x| + |y|: no
// assumption on how the errors correlate); over the n terms of a sum or a
// matmul, rounding errors are taken as independent, so they add in
// quadrature: the n roundings of a sum of terms x_i give u sqrt(n)
// (sqrt(sum x_i^2) + |sum x_i|) (Higham and Mary's probabilistic analysis;
// the worst case, (n-1) u sum |x_i|, grows sqrt(n) times faster and made
// the scales of deep programs useless), and the terms' own errors
// sqrt(sum E_i^2) (ReductionRules.cpp). The rounding
// constants are per op: 1 u for +, -, * (correctly rounded; an FMA only
// rounds less), 4 u for division, square root and reciprocal and 8 u for
// rsqrt (the GPU's approximate forms), and 16 u (8 ulps) for the
// transcendental functions (libm's and libdevice's are within 1 to 4 ulps).
// f16 and bf16 ops compute in f32 and round once.
//
//===----------------------------------------------------------------------===//
#include "passes/utils/ErrorRules.h"

#include "dialect/Kf/KfTypeRules.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace kfuse;
using namespace kfuse::kf;
using namespace kfuse::detail;

static Type elementOf(Value x) {
  return cast<RankedTensorType>(x.getType()).getElementType();
}


LogicalResult kfuse::retype(Operation *op) {
  if (auto c = dyn_cast<tensor::CastOp>(op)) {
    auto type = cast<RankedTensorType>(c.getType());
    c.getResult().setType(type.clone(elementOf(c.getSource())));
    return success();
  }
  if (isa<ContiguousOp>(op)) {
    op->getResult(0).setType(op->getOperand(0).getType());
    return success();
  }
  auto infer = dyn_cast<InferTypeOpInterface>(op);
  if (!infer)
    return op->emitOpError("has no float64 reference (its result types are not "
                           "inferred from its operands)");
  SmallVector<Type> types;
  if (failed(infer.inferReturnTypes(op->getContext(), op->getLoc(), op->getOperands(),
                                    op->getAttrDictionary(), op->getPropertiesStorage(),
                                    op->getRegions(), types)))
    return failure();
  for (auto [result, type] : llvm::zip(op->getResults(), types))
    result.setType(type);
  return success();
}


FailureOr<Value> Rules::elementwise() {
  return TypeSwitch<Operation *, FailureOr<Value>>(op)
      .Case<AddOp, SubOp>([&](auto) { return h.add(h.add(e(0), e(1)), rounding(1)); })
      .Case<MulOp>([&](auto) {
        Value ea = e(0), eb = e(1);
        Value prop = h.add(h.add(h.mul(h.abs(a(1)), ea), h.mul(h.abs(a(0)), eb)),
                           h.mul(ea, eb));
        return h.add(prop, rounding(1));
      })
      .Case<DivOp>([&](auto) { return h.add(quotient(e(0), e(1)), rounding(4)); })
      .Case<MaximumOp, MinimumOp>([&](auto) { return h.max(e(0), e(1)); })
      .Case<PowOp>([&](auto) -> Value {
        // |a^b| e^t - |a^b|, t the most |b log a| can move.
        Value ea = e(0), eb = e(1), absA = h.abs(a(0)), r;
        if (ea)
          r = h.finiteBelow(h.div(ea, h.sub(absA, ea)), h.scale(ea, kReach), absA);
        Value t = h.add(h.mul(h.abs(a(1)), r),
                        h.add(h.mul(h.abs(h.unary<LogOp>(absA)), eb), h.mul(r, eb)));
        Value prop = t ? h.mul(h.abs(v()), h.unary<Expm1Op>(t)) : nullptr;
        return h.add(prop, rounding(16));
      })
      .Case<RemainderOp, FloorDivideOp>([&](auto) -> Value {
        Value ea = e(0), eb = e(1);
        // fmod is exact: only the operands' bounds move the result.
        bool isRemainder = isa<RemainderOp>(op);
        Value own = isRemainder ? rounding(1) : nullptr;
        if (!ea && !eb)
          return own;
        Value q = h.div(a(0), a(1));
        Value eq = quotient(ea, eb);
        Value jump = step<FloorOp>(q, eq);
        if (!isRemainder)
          return jump;
        // Within one step of the quotient: a - k b moves by Ea + |k| Eb;
        // across a step it may be anywhere in (-|b|, |b|) (and Eb more).
        Value b = h.abs(a(1));
        Value steady = h.add(ea, h.mul(eb, h.abs(h.unary<FloorOp>(q))));
        Value across = h.add(h.scale(b, 2), eb);
        return h.add(h.where(h.lt(h.constant(0.5), jump), across, h.f64(steady)), own);
      })
      .Case<EqOp, NeOp, LtOp, LeOp, GtOp, GeOp>([&](auto) -> Value {
        Value within = h.add(e(0), e(1));
        if (!within)
          return nullptr;
        // 1 where the operands are within reach: the answer may flip.
        return h.where(h.le(h.abs(h.sub(a(0), a(1))), h.scale(within, kReach)), h.constant(1),
                       h.constant(0));
      })
      .Case<WhereOp>([&](auto) -> Value {
        Value ex = e(1), ey = e(2), ec = in.bounds[0];
        Value picked;
        if (ex || ey)
          picked = h.where(a(0), ex ? ex : h.constant(0), ey ? ey : h.constant(0));
        if (!ec)
          return picked;
        Value apart = h.add(h.abs(h.sub(a(1), a(2))), h.max(ex, ey));
        return h.add(picked, h.where(h.lt(h.constant(0.5), ec), apart, h.constant(0)));
      })
      .Case<NegOp, AbsOp, ReluOp>([&](auto) { return e(0); })
      // A float bound is rounded to the result's dtype.
      .Case<ClampOp>([&](auto) { return h.add(e(0), rounding(1)); })
      .Case<FloorOp, CeilOp, RoundOp>([&](auto) -> Value {
        if (u == 0) // an integer is its own floor
          return e(0);
        if (isa<FloorOp>(op))
          return step<FloorOp>(a(), e(0));
        if (isa<CeilOp>(op))
          return step<CeilOp>(a(), e(0));
        return step<RoundOp>(a(), e(0));
      })
      .Default([&](Operation *) { return unaryFloat(); });
}

FailureOr<Value> Rules::unaryFloat() {
  if (!isa<ExpOp, Exp2Op, Expm1Op, LogOp, Log1pOp, SqrtOp, RsqrtOp, ReciprocalOp, TanhOp,
           SinOp, CosOp, SigmoidOp, ErfOp, GeluOp, SiluOp, CastOp>(op))
    return reduction();
  if (isa<CastOp>(op))
    return cast();
  Value x = a(), ex = e(0);
  auto absX = [&] { return h.abs(x); };
  auto absV = [&] { return finiteAbs(v()); };
  auto lipschitz = [&](double k, double c, Value extra = nullptr) {
    return h.add(h.scale(ex, k), rounding(c, extra));
  };
  // Infinite where the pole is within reach of x.
  auto nearPole = [&](Value value, Value distance) {
    return ex ? h.finiteBelow(value, h.scale(ex, kReach), distance) : nullptr;
  };
  return TypeSwitch<Operation *, FailureOr<Value>>(op)
      .Case<ExpOp>([&](auto) {
        return h.add(ex ? h.mul(absV(), h.unary<Expm1Op>(ex)) : Value(), rounding(16));
      })
      .Case<Exp2Op>([&](auto) {
        return h.add(ex ? h.mul(absV(), h.unary<Expm1Op>(h.scale(ex, M_LN2))) : Value(),
                     rounding(16));
      })
      .Case<Expm1Op>([&](auto) {
        Value prop = ex ? h.mul(h.add(absV(), h.constant(1)), h.unary<Expm1Op>(ex)) : nullptr;
        return h.add(prop, rounding(16));
      })
      .Case<LogOp>([&](auto) -> Value {
        Value prop = ex ? nearPole(h.unary<NegOp>(h.unary<Log1pOp>(
                                       h.unary<NegOp>(h.div(ex, absX())))),
                                   absX())
                        : nullptr;
        return h.add(prop, rounding(16));
      })
      .Case<Log1pOp>([&](auto) -> Value {
        Value d = ex ? h.abs(h.add(x, h.constant(1))) : nullptr;
        Value prop = ex ? nearPole(h.unary<NegOp>(h.unary<Log1pOp>(
                                       h.unary<NegOp>(h.div(ex, d)))),
                                   d)
                        : nullptr;
        return h.add(prop, rounding(16));
      })
      .Case<SqrtOp>([&](auto) -> Value {
        // |sqrt(x') - sqrt(x)| <= min(sqrt(e), e / sqrt(x)); infinite where
        // x' may be negative (the program's sqrt would be NaN).
        Value prop;
        if (ex)
          prop = nearPole(h.min(h.unary<SqrtOp>(ex), h.div(ex, v())), x);
        return h.add(prop, rounding(4));
      })
      .Case<RsqrtOp>([&](auto) -> Value {
        Value prop = ex ? nearPole(h.sub(h.unary<RsqrtOp>(h.sub(x, ex)), v()), x) : nullptr;
        return h.add(prop, rounding(8));
      })
      .Case<ReciprocalOp>([&](auto) -> Value {
        Value prop =
            ex ? nearPole(h.div(ex, h.mul(absX(), h.sub(absX(), ex))), absX()) : nullptr;
        return h.add(prop, rounding(4));
      })
      .Case<TanhOp, SinOp, CosOp>([&](auto) { return lipschitz(1, 16); })
      .Case<SigmoidOp>([&](auto) { return lipschitz(0.25, 16); })
      .Case<ErfOp>([&](auto) { return lipschitz(1.1284, 16); })
      // 0.5 x (1 + erf(x / sqrt 2)): 1 + erf cancels for x < 0.
      .Case<GeluOp>([&](auto) { return lipschitz(1.13, 16, x); })
      .Case<SiluOp>([&](auto) { return lipschitz(1.1, 16); })
      .Default([&](Operation *) -> FailureOr<Value> {
        return op->emitOpError("has no float64 reference rule"), failure();
      });
}

FailureOr<Value> Rules::cast() {
  Type from = in.operandTypes[0], to = in.resultType;
  Value ex = in.bounds[0], x = a();
  if (isa<FloatType>(to))
    // Both the program and the reference round (the reference keeps the
    // cast's rounding): twice u |v|.
    return h.add(ex, exactIn(from, to) ? nullptr : scaledMagnitude(v(), 2 * u));
  if (!ex || !isa<FloatType>(from))
    return ex; // integer to integer or bool: exact but for the operand's bound
  Value r = h.scale(ex, kReach);
  if (to.isInteger(1))
    return h.where(h.le(h.abs(x), r), h.constant(1), h.constant(0));
  return h.abs(h.sub(h.castThrough(h.add(x, r), to), h.castThrough(h.sub(x, r), to)));
}


FailureOr<Value> kfuse::errorBound(BoundBuilder &h, Operation *op, const OpBounds &in) {
  Type compute = in.resultType;
  // A comparison converts its operands to their promoted dtype.
  if (isa<EqOp, NeOp, LtOp, LeOp, GtOp, GeOp>(op)) {
    SmallVector<Type> types;
    for (auto [operand, t] : llvm::zip(op->getOperands(), in.operandTypes))
      types.push_back(cast<RankedTensorType>(operand.getType()).clone(t));
    compute = resultElementType(types);
  }
  // Reductions, matmul and casts do not convert their operands to the
  // result's dtype (f16 sums accumulate in f32; a cast is its rounding).
  if (isa<SumOp, MeanOp, MaxOp, MinOp, ArgmaxOp, ArgminOp, CastOp>(op))
    compute = in.operandTypes[0];
  // Each op that rounds has its overflow in its rounding term (Rules::
  // scaledMagnitude); the others (max, views, comparisons) cannot overflow.
  Rules rules{h, op, in, unitRoundoff(in.resultType), compute};
  FailureOr<Value> bound = rules.elementwise();
  if (failed(bound) || !*bound)
    return bound;
  // A scale taken from one broadcast operand alone (maximum of a row and
  // a matrix, an integer add) has that operand's shape: the value's, here.
  auto shape = [](Value x) { return cast<RankedTensorType>(x.getType()).getShape(); };
  if (shape(*bound) != shape(in.value))
    return h.add(*bound, h.zerosLike(in.value));
  return bound;
}
