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
// erfc(t), a = |t|: exp(-a^2) q P(u), q = 2 / (2 + a), u = q mapped onto
//   [-1, 1]; for t < 0, 2 - erfc(a).
//   exp(-a^2) is exp(-hi) (1 - lo) with hi + lo = a^2 exactly (an fma
//   gives lo): rounding a^2 to f32 before the exp would cost up to
//   2 a^2 2^-24 relatively, 60 ulp at a = 5.6.
// In a GELU the erf's argument is x times f32(1 / sqrt 2): its rounding
// costs the same 2 a^2 2^-24 (9 ulp at x = -3), so where z is that
// product, a^2 is taken as x^2 / 2, exactly (x^2 by an fma, halved).
// The polynomial is a Chebyshev fit of mpmath's erfc(a) exp(a^2) in
// monomial form in a variable u in [-1, 1] so that f32 Horner steps do not
// cancel.
// The code is bound by the core's multiplies and fmas: 32 of the 53
// instructions of a 16-lane GELU's loop on a Zen 4. 1 / (1 + a / 2) by
// AVX-512's 14-bit estimate and a Newton step, instead of the division,
// took 3% more time, not less.
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

// erfc(a) exp(a^2) = q P(u) for a in [0, 10.5], with q = 2 / (2 + a) in
// [0.16, 1] and u = q mapped onto [-1, 1] (relative error of the fit
// 3.8e-9; a least-squares fit on Chebyshev nodes, weighted relatively:
// scripts/fit_erfc.py).
// q P(q) behaves like erfc(a) exp(a^2) at both ends (1 at 0, 1 / (a sqrt pi)
// far out), so one polynomial covers every a: one division and 10 fmas
// where two fits (a polynomial in a up to 2, one in 1 / a^2 past it) cost
// 18 fmas and two divisions, both evaluated for every lane (a standalone
// GELU on one core: 91.5 -> 81 us for 65536 f32).
constexpr double kErfcFit[] = {
    0.5694087214132437,     0.32718790964811945,    0.1035210445791721,
    0.006308383996753138,   -0.006327741368974844,  -0.0006747233121824468,
    0.0006262527105033895,  9.605731045568013e-06,  -7.235973217674907e-05,
    6.639621571758872e-06,  6.270436146845003e-06};
// Near a = 0 (where erfc is near 1) the roundings of the exp, of the
// quotient (amplified: erfc falls twice as fast as q there), of Horner's
// steps and of the products add up to 6.35 ulp of GELU (the largest error,
// 6.40 at x = -2.497497, is elsewhere: docs/reference/accuracy.md). A
// branch for a < 0.5, 1 - t S(t^2) by erf's series, kept it to 5.1 ulp
// near 0 for 21% more time on every element (a 16-lane GELU on one core:
// 698 -> 848 us for 2^20 elements): it was dropped.
constexpr double kFitScale = 2.0, kFitLow = 2.0 / (2.0 + 10.5);
// The fit's domain ends at this a (kFitLow).
constexpr double kLargest = 10.5;
// Past this a (13 / sqrt 2: GELU's x = -13) erfc(a) is below 2^-126, a
// subnormal f32, and so are exp(-a^2) q P(u) and its factors further out.
// x86 cores finish an operation with a subnormal result in microcode (a
// couple of hundred cycles a vector): a GELU of 65536 f32 of standard
// deviation 8 (a random-weight BERT's Linear outputs) took 172 us on one
// Zen 3 core against 96 for deviation 1. So a is clamped here, which keeps
// every intermediate normal, and erfc past it is 0 (flush to zero: GELU's
// true value is below 8e-38 there; PyTorch's f32 formula gives -0 from
// x = -5.7 on).
constexpr double kNormalEnd = 9.192388155425118;

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
Value erfcF32(F32Math &m, Value t, Value gelu, bool x86Scalef) {
  Value a = m.abs(t);
  Value ac = m.min(a, m.c(kNormalEnd));
  Value hi, lo; // hi + lo = a^2
  Value past;   // erfc(a) below 2^-126, flushed
  if (gelu) {
    Value xa = m.abs(gelu), end = m.c(kNormalEnd * std::sqrt(2.0)); // x = 13
    Value xc = m.min(xa, end);
    past = m.less(end, xa);
    Value square = m.mul(xc, xc);
    hi = m.mul(square, m.c(0.5));
    lo = m.mul(m.fma(xc, xc, m.neg(square)), m.c(0.5));
  } else {
    hi = m.mul(ac, ac);
    lo = m.fma(ac, ac, m.neg(hi));
    past = m.less(m.c(kNormalEnd), a);
  }
  // e (1 - lo) by one fma: one rounding instead of two.
  // hi is in [0, 84.5] (a clamped, so finite for NaN too): no guards.
  Value e = kfuse::host::expF32(m.b, m.loc, m.neg(hi), x86Scalef, /*guarded=*/false);
  Value decay = m.fma(m.neg(e), lo, e);
  Value q = m.div(m.c(kFitScale), m.add(m.c(kFitScale), ac));
  Value u = m.fma(q, m.c(2 / (1 - kFitLow)), m.c(-(1 + kFitLow) / (1 - kFitLow)));
  Value big = m.select(past, m.c(0.0), m.mul(decay, m.mul(q, m.horner(kErfcFit, u))));
  Value y = m.select(m.less(m.c(0.0), t), big, m.sub(m.c(2.0), big));
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

void kfuse::host::rewriteComplements(ModuleOp module, bool x86Scalef) {
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
    if (isa<math::TanhOp>(function)) { // 2 / (1 + exp(-2y))
      Value e = kfuse::host::expF32(b, add.getLoc(), m.mul(arg, m.c(-2.0)), x86Scalef);
      y = m.div(m.c(2.0), m.add(m.c(1.0), e));
    } else {
      y = erfcF32(m, m.neg(arg), geluInput(arg), x86Scalef);
    }
    add.replaceAllUsesWith(y);
    add.erase();
    if (function->use_empty())
      function->erase();
  }
}
