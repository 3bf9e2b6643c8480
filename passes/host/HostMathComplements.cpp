//===- HostMathComplements.cpp - 1 + erf(z) and 1 + tanh(y) in f32 --------===//
//
// Both GELUs add 1 to a function that tends to -1:
//   0.5 x (1 + erf(x / sqrt 2))  and  0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
// For negative x the sum cancels: erf and tanh rounded to f32 near -1 keep
// an absolute error of half their ulp (3e-8), which is a large relative
// error of a sum near 0 (GELU at x = -3: 95 ulp with kf-host-math's
// correctly rounded f64 erf; PyTorch's f32 formula 536). kf-host-math
// therefore computed them in f64, 4 lanes a register and long polynomials:
// the GELU epilogue cost as much as its matmul (bench/zoo_cpu.py).
//
// The same functions written without the cancellation need no f64:
//   1 + erf(z) = erfc(-z)            1 + tanh(y) = 2 / (1 + exp(-2y))
// erfc in f32 (below) is within about 6 ulp of the exact value and
// 2 / (1 + exp(-2y)) within about 2.5 (expF32's 1 ulp, two roundings), in
// f32 arithmetic, 8 lanes a register. Every f32 `1 + erf` and `1 + tanh`
// is rewritten, whatever program it is in: both forms are the exact
// function, more accurately computed.
//
// erfc(t), a = |t|:
// - a < 0.5: 1 - t P(t^2) (erf's series; no cancellation, erf < 0.53);
// - 0.5 <= a: exp(-a^2) R(a) with R = erfc(a) exp(a^2), a polynomial in a
//   up to 2 and Q(1 / a^2) / a past it; for t < 0, 2 - erfc(a).
//   exp(-a^2) is exp(-hi) (1 - lo) with hi + lo = a^2 exactly (an fma
//   gives lo): rounding a^2 to f32 before the exp would cost up to
//   2 a^2 2^-24 relatively, 60 ulp at a = 5.6.
// In a GELU the erf's argument is x times f32(1 / sqrt 2): its rounding
// costs the same 2 a^2 2^-24 (9 ulp at x = -3), so where z is that
// product, a^2 is taken as x^2 / 2, exactly (x^2 by an fma, halved).
// The polynomials are Chebyshev fits of Python's math.erf and math.erfc in
// f64, in monomial form in a variable u in [-1, 1] so that f32 Horner
// steps do not cancel.
//
//===----------------------------------------------------------------------===//
#include "passes/host/HostMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;

namespace {

// erf(t) / t = P(8 t^2 - 1) for |t| < 0.5 (fit's relative error 1.4e-9).
constexpr double kSmall[] = {1.0830752376891666, -0.0436420515473565, 0.0016130714357845612,
                             -4.765272099917572e-05, 1.1522230603950985e-06};
// erfc(a) exp(a^2) = R((a - 1.25) * 4/3) for a in [0.5, 2] (3.0e-9).
constexpr double kMiddle[] = {
    0.367822916354029,      -0.15661641619106023,    0.06007251601697483,
    -0.02118565130986072,   0.00696445148679129,     -0.002156129181086437,
    0.0006327226770645998,  -0.00017468333585664132, 4.679469495664994e-05,
    -1.4453063078079175e-05, 3.6089213725174015e-06};
// erfc(a) exp(a^2) a = Q((s - m) * k) with s = 1 / a^2 in [1 / 10.1^2,
// 1/4], a in [2, 10.1] (4.1e-9); past 10.1 erfc is 0 in f32 anyway.
constexpr double kTail[] = {0.533050572774157,      -0.024789336749586586,
                            0.0029553806759619306,  -0.0005156063314054753,
                            0.00011265695304049792, -2.7927871835769494e-05,
                            7.79878323799902e-06,   -3.410215745767258e-06,
                            1.2261303225723023e-06};
constexpr double kTailLo = 1.0 / (10.1 * 10.1), kTailHi = 0.25;
// Past this a, exp(-a^2) is 0 in f32 (expF32 flushes below -104): the
// clamp keeps a^2 and its error term finite.
constexpr double kLargest = 10.5;

/// f32 arithmetic on scalars or vectors of one type.
struct F32Math {
  OpBuilder &b;
  Location loc;
  Type type;

  Value c(double v) {
    TypedAttr scalar = b.getF32FloatAttr(v);
    if (auto vec = dyn_cast<VectorType>(type))
      return arith::ConstantOp::create(b, loc, SplatElementsAttr::get(vec, scalar));
    return arith::ConstantOp::create(b, loc, scalar);
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value fma(Value x, Value y, Value z) { return math::FmaOp::create(b, loc, x, y, z); }
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
  Value abs(Value x) { return math::AbsFOp::create(b, loc, x); }
  Value min(Value x, Value y) { return arith::MinNumFOp::create(b, loc, x, y); }
  Value less(Value x, Value y) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y);
  }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  template <size_t N> Value horner(const double (&k)[N], Value u) {
    Value r = c(k[N - 1]);
    for (int i = N - 2; i >= 0; --i)
      r = fma(r, u, c(k[i]));
    return r;
  }
};

/// erfc(t) in f32. `gelu`, where given, is x with t = -x / sqrt 2: the
/// square is then taken from x exactly (see the file comment).
Value erfcF32(F32Math &m, Value t, Value gelu) {
  Value a = m.abs(t);
  Value ac = m.min(a, m.c(kLargest));
  Value hi, lo; // hi + lo = a^2
  if (gelu) {
    Value xc = m.min(m.abs(gelu), m.c(kLargest * std::sqrt(2.0)));
    Value square = m.mul(xc, xc);
    hi = m.mul(square, m.c(0.5));
    lo = m.mul(m.fma(xc, xc, m.neg(square)), m.c(0.5));
  } else {
    hi = m.mul(ac, ac);
    lo = m.fma(ac, ac, m.neg(hi));
  }
  Value decay = m.mul(kfuse::host::expF32(m.b, m.loc, m.neg(hi)), m.sub(m.c(1.0), lo));
  Value middle = m.horner(kMiddle, m.mul(m.sub(ac, m.c(1.25)), m.c(4.0 / 3.0)));
  Value s = m.div(m.c(1.0), hi);
  Value tail = m.div(m.horner(kTail, m.mul(m.sub(s, m.c((kTailLo + kTailHi) / 2)),
                                           m.c(2 / (kTailHi - kTailLo)))),
                     ac);
  Value big = m.mul(decay, m.select(m.less(ac, m.c(2.0)), middle, tail));
  Value small = m.fma(m.neg(t), m.horner(kSmall, m.fma(m.mul(t, t), m.c(8.0), m.c(-1.0))),
                      m.c(1.0));
  Value y = m.select(m.less(a, m.c(0.5)), small,
                     m.select(m.less(m.c(0.0), t), big, m.sub(m.c(2.0), big)));
  Value isNaN = arith::CmpFOp::create(m.b, m.loc, arith::CmpFPredicate::UNO, t, t);
  return m.select(isNaN, t, y); // the clamps are minnum: NaN put back
}

/// x where z = x * f32(1 / sqrt 2) (kf.gelu's lowering), else null.
Value geluInput(Value z) {
  auto product = z.getDefiningOp<arith::MulFOp>();
  if (!product)
    return nullptr;
  for (int i = 0; i < 2; ++i) {
    APFloat scale(0.0f);
    if (matchPattern(product->getOperand(1 - i), m_ConstantFloat(&scale)) &&
        scale.convertToFloat() == static_cast<float>(M_SQRT1_2))
      return product->getOperand(i);
  }
  return nullptr;
}

bool isF32(Type t) {
  if (auto vec = dyn_cast<VectorType>(t))
    return vec.getElementType().isF32();
  return t.isF32();
}

} // namespace

void kfuse::host::rewriteComplements(ModuleOp module) {
  SmallVector<arith::AddFOp> adds;
  module.walk([&](arith::AddFOp add) {
    if (isF32(add.getType()))
      adds.push_back(add);
  });
  for (arith::AddFOp add : adds) {
    Operation *function = nullptr;
    for (int i = 0; i < 2 && !function; ++i) {
      Operation *def = add->getOperand(i).getDefiningOp();
      if (isa_and_nonnull<math::ErfOp, math::TanhOp>(def) &&
          matchPattern(add->getOperand(1 - i), m_OneFloat()))
        function = def;
    }
    if (!function)
      continue;
    OpBuilder b(add);
    F32Math m{b, add.getLoc(), add.getType()};
    Value arg = function->getOperand(0);
    Value y;
    if (isa<math::TanhOp>(function)) // 2 / (1 + exp(-2y))
      y = m.div(m.c(2.0),
                m.add(m.c(1.0), kfuse::host::expF32(b, add.getLoc(), m.mul(arg, m.c(-2.0)))));
    else
      y = erfcF32(m, m.neg(arg), geluInput(arg));
    add.replaceAllUsesWith(y);
    add.erase();
    if (function->use_empty())
      function->erase();
  }
}
