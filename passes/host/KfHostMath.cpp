//===- KfHostMath.cpp - exp, tanh, expm1, rsqrt, erf, log for the CPU -----===//
//
// On the CPU, math.tanh of f32 went to libm's tanhf (up to 2.2 ulp from the
// exact value over 2^20 points), expm1 was 2t / (1 - t), t = tanh(x/2),
// near 0 (3.9 ulp, and 0 for the smallest denormal), and rsqrt 1 / sqrt(x)
// (two roundings: 1.47 ulp). They are written out
// here in f64 arithmetic for f32, f16 and bf16 operands, scalar or vector:
// the f64 result is within about 1e-15 of the exact one relatively, so the
// one rounding to f32 at the end is correct but for inputs within 1e-15 of
// a halfway point (at most 0.5 ulp and a hair; test/Runtime/ulp-bounds.mlir
// measures it). The code is branch-free arithmetic that vectorizes (4 f64
// lanes a register): no libm call a lane.
//
// - expm1(x): x = n ln 2 + r, |r| <= ln 2 / 2 (Cody-Waite, ln 2 in two
//   parts); expm1(r) by its Taylor series to r^13 (the next term is below
//   5e-18 of r); expm1(x) = 2^n expm1(r) + (2^n - 1), which for n = 0 is
//   the series itself: exact for tiny x (denormals included, which are
//   normal numbers in f64). x is clamped to [-40, 90] first: past either
//   end the f32 result is -1 or inf.
// - tanh(x) = sign(x) t / (t + 2), t = expm1(2 |x|), |x| clamped to 10
//   (tanh is 1 in f32 from 9.01 on). No cancellation: t and t + 2 are
//   accurate relatively, small or large.
// - rsqrt(x) = 1 / sqrt(x), both in f64.
// - erf(x): |x| clamped to 4 (erf is 1 in f32 from 3.92 on); below 1,
//   x P(x^2), from 1 on Q((|x| - 2.5) * 2/3), both polynomials fitted
//   here (numpy's Chebyshev fit of math.erf, then monomial form), both
//   computed and one selected, the sign put back. libm's erff was a call
//   a lane (0.78 ulp); a GELU's erf now runs 4 f64 lanes a register.
// - log(x): x = 2^e m from its bits, m in [sqrt(1/2), sqrt(2)); log m =
//   2 atanh((m - 1) / (m + 1)) by its series (12 terms); e ln 2 added by
//   one fma. 0 gives -inf, negatives NaN, inf inf. libm's logf a lane was
//   0.78 ulp.
// NaN is put back at the end (the clamps are maxnum/minnum).
//
// exp of f32 (f16, bf16 through it) is a polynomial in f32 (expF32): one
// computation for every host kernel, vector or scalar code, so that its
// bits do not depend on the kernel fusion put it in, and no libm call a
// lane in vector code.
//
// f64 expm1 becomes a call of libm's expm1 (math-to-llvm would write
// exp(x) - 1, which loses everything near 0); f64 tanh is libm's already.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "passes/host/HostMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include <limits>

namespace kfuse {
#define GEN_PASS_DEF_KFHOSTMATH
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

/// Builds f64 arithmetic on scalars or vectors of the shape of `like`.
struct F64Math {
  OpBuilder &b;
  Location loc;
  Type f64; // f64, or a vector of f64 of the operand's shape
  Type i64;

  F64Math(OpBuilder &b, Location loc, Type like) : b(b), loc(loc) {
    auto vec = dyn_cast<VectorType>(like);
    f64 = vec ? Type(vec.clone(b.getF64Type())) : Type(b.getF64Type());
    i64 = vec ? Type(vec.clone(b.getI64Type())) : Type(b.getI64Type());
  }

  Value constant(Type t, TypedAttr scalar) {
    if (auto vec = dyn_cast<VectorType>(t))
      return arith::ConstantOp::create(b, loc, SplatElementsAttr::get(vec, scalar));
    return arith::ConstantOp::create(b, loc, scalar);
  }
  Value c(double v) { return constant(f64, b.getF64FloatAttr(v)); }
  Value ci(int64_t v) { return constant(i64, b.getI64IntegerAttr(v)); }
  Value fma(Value a, Value m, Value s) { return math::FmaOp::create(b, loc, a, m, s); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }

  /// expm1(x) for x in [-40, 90] (see the file comment).
  Value expm1Core(Value x) {
    Value n = math::RoundEvenOp::create(b, loc, mul(x, c(1.4426950408889634)));
    // ln 2 = hi + lo, hi with 21 trailing zero bits: n * hi is exact.
    Value r = fma(n, c(-6.93147180369123816490e-01), x);
    r = fma(n, c(-1.90821492927058770002e-10), r);
    // sum_{k >= 2} r^(k-2) / k!, k to 13, by Horner.
    double coefficient = 1.0;
    SmallVector<double> inverseFactorials;
    for (int k = 2; k <= 13; ++k)
      inverseFactorials.push_back(coefficient /= k);
    Value q = c(inverseFactorials.back());
    for (int k = (int)inverseFactorials.size() - 2; k >= 0; --k)
      q = fma(q, r, c(inverseFactorials[k]));
    Value p = fma(q, mul(r, r), r); // expm1(r); r itself when r * r vanishes
    // 2^n, n in [-58, 130]: a normal f64 built from its exponent bits.
    Value bits = arith::ShLIOp::create(
        b, loc, arith::AddIOp::create(b, loc, arith::FPToSIOp::create(b, loc, i64, n), ci(1023)),
        ci(52));
    Value s = arith::BitcastOp::create(b, loc, f64, bits);
    return fma(s, p, arith::SubFOp::create(b, loc, s, c(1.0)));
  }

  Value keepNaN(Value x, Value y) {
    Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    return arith::SelectOp::create(b, loc, isNaN, x, y);
  }

  Value expm1(Value x) {
    Value clamped = arith::MinNumFOp::create(
        b, loc, arith::MaxNumFOp::create(b, loc, x, c(-40.0)), c(90.0));
    return keepNaN(x, expm1Core(clamped));
  }

  /// erf(x) for f32, f16 and bf16 (see the file comment).
  Value erf(Value x) {
    // erf(x) / x as a polynomial in t = x^2 on [0, 1], and erf(a) as one in
    // u = (a - 2.5) * 2/3 on [1, 4]: Chebyshev fits of math.erf (degrees 9
    // and 20; f64 relative error below 3e-14 and 1.2e-12), in monomial form.
    static constexpr double small[] = {
        1.1283791670955436,     -0.37612638902795054,   0.11283791658120124,
        -0.026866169000390856,  0.005223966904974979,   -0.0008547924543645506,
        0.00012046090903380179, -1.4793205215054899e-05, 1.5295882559160869e-06,
        -1.0444131929664664e-07};
    static constexpr double large[] = {
        0.9995930479824762,     0.0032674263687419366,  -0.012252848763954844,
        0.028181550502647323,   -0.04365077509340422,   0.04645365098625933,
        -0.03187653256804117,   0.009267199667883926,   0.00668053917885039,
        -0.009619656150557621,  0.004544774623063533,   0.0004370178617734222,
        -0.0018287717632846244, 0.0009287547997867239,  5.63609622607115e-05,
        -0.00030285406332092855, 0.00011405692121051089, 3.745768660965991e-05,
        -3.297854801939369e-05, -9.518423258595701e-07, 3.5158352933633004e-06};
    Value a = arith::MinNumFOp::create(b, loc, math::AbsFOp::create(b, loc, x), c(4.0));
    Value nearZero = mul(a, horner(small, mul(a, a)));
    Value u = mul(arith::SubFOp::create(b, loc, a, c(2.5)), c(2.0 / 3.0));
    Value below = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, a, c(1.0));
    Value y = arith::SelectOp::create(b, loc, below, nearZero, horner(large, u));
    return keepNaN(x, math::CopySignOp::create(b, loc, y, x));
  }

  /// log(x) for f32, f16 and bf16 (see the file comment).
  Value log(Value x) {
    // x = 2^e m, m in [1, 2) from the bits (every f32 is a normal f64),
    // then m in [sqrt(1/2), sqrt(2)); log m = 2 atanh(s), s = (m - 1) /
    // (m + 1), |s| <= 0.1716: sum s^(2k+1) / (2k+1) to k = 11 (the next
    // term is below 1.4e-17 of the first).
    Value bits = arith::BitcastOp::create(b, loc, i64, x);
    Value e = arith::SubIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, bits, ci(52)), ci(1023));
    Value mantissa = arith::OrIOp::create(
        b, loc, arith::AndIOp::create(b, loc, bits, ci(0x000FFFFFFFFFFFFF)),
        ci(0x3FF0000000000000));
    Value m = arith::BitcastOp::create(b, loc, f64, mantissa);
    Value big = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, m,
                                      c(1.4142135623730951));
    m = arith::SelectOp::create(b, loc, big, mul(m, c(0.5)), m);
    e = arith::SelectOp::create(b, loc, big, arith::AddIOp::create(b, loc, e, ci(1)), e);
    Value s = arith::DivFOp::create(b, loc, arith::SubFOp::create(b, loc, m, c(1.0)),
                                    add(m, c(1.0)));
    double inverseOdd[12];
    for (int k = 0; k < 12; ++k)
      inverseOdd[k] = 1.0 / (2 * k + 1);
    Value series = mul(add(s, s), horner(inverseOdd, mul(s, s)));
    Value y = fma(arith::SIToFPOp::create(b, loc, f64, e), c(0.6931471805599453), series);
    // 0 gives -inf, a negative x NaN, inf itself; NaN stays NaN (below).
    Value zero = c(0.0);
    y = arith::SelectOp::create(
        b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, zero),
        c(-std::numeric_limits<double>::infinity()), y);
    y = arith::SelectOp::create(
        b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero),
        c(std::numeric_limits<double>::quiet_NaN()), y);
    y = arith::SelectOp::create(
        b, loc,
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                              c(std::numeric_limits<double>::infinity())),
        x, y);
    return keepNaN(x, y);
  }

  /// sum_k coefficients[k] v^k, by Horner's rule.
  template <size_t N> Value horner(const double (&coefficients)[N], Value v) {
    Value r = c(coefficients[N - 1]);
    for (int k = N - 2; k >= 0; --k)
      r = fma(r, v, c(coefficients[k]));
    return r;
  }

  Value tanh(Value x) {
    Value a = arith::MinNumFOp::create(b, loc, math::AbsFOp::create(b, loc, x), c(10.0));
    Value t = expm1Core(add(a, a));
    Value y = arith::DivFOp::create(b, loc, t, add(t, c(2.0)));
    return keepNaN(x, math::CopySignOp::create(b, loc, y, x));
  }
};

} // namespace

/// y 2^n (n integral, in [-150, 128]) as AVX-512's vscalefps, for a vector
/// of 4, 8 or 16 f32 (AVX512VL for the first two), else null. One
/// instruction where 2^n in two halves is nine (a conversion, shifts,
/// adds and two products); the same bits: y 2^(n/2) is exact, and both
/// round y 2^n once (a softmax over rows of 64: 99 -> 87 us for 2048
/// rows on one Zen 4 core). LLVM's x86 intrinsics: there is no generic
/// form, and x86vector's op has the 512-bit one only.
static Value scalef(OpBuilder &b, Location loc, Value y, Value n) {
  auto vec = dyn_cast<VectorType>(y.getType());
  if (!vec || vec.getRank() != 1 || vec.isScalable() || !vec.getElementType().isF32())
    return Value();
  int64_t lanes = vec.getNumElements();
  if (lanes != 4 && lanes != 8 && lanes != 16)
    return Value();
  Type maskType = lanes == 16 ? b.getI16Type() : b.getI8Type();
  SmallVector<Value> args{y, n, y, // every lane (the pass-through unused)
                          arith::ConstantOp::create(b, loc, b.getIntegerAttr(maskType, -1))};
  if (lanes == 16) // the current rounding mode (_MM_FROUND_CUR_DIRECTION)
    args.push_back(arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(4)));
  std::string name = "llvm.x86.avx512.mask.scalef.ps." + std::to_string(lanes * 32);
  return LLVM::CallIntrinsicOp::create(b, loc, vec, b.getStringAttr(name), args).getResult(0);
}

/// exp(x) of f32, scalar or vector, without libm (LLVM scalarizes a vector
/// llvm.exp into one expf call a lane): Cephes' expf (range reduction by
/// n ln 2 in two parts, degree-6 polynomial, 2^n applied in two halves so
/// that subnormal and overflowing results come out right), in f32: a
/// softmax's exp runs 8 lanes a register. Measured against numpy's float64
/// exp, 2M points each in [-104, 0] and [0, 89]: at most 1.006 ulp from the
/// exact value for normal results (libm's expf: about 0.5), subnormal
/// results within 1.05e-45, inf past 88.72, NaN kept
/// (test/Runtime/ulp-bounds.mlir holds it to docs/reference/accuracy.md).
/// Upstream's populateMathPolynomialApproximationPatterns has an exp
/// approximation too; it was not measured against this one.
Value kfuse::host::expF32(OpBuilder &b, Location loc, Value x, bool x86Scalef,
                          bool guarded) {
  Type ft = x.getType();
  auto vec = dyn_cast<VectorType>(ft);
  Type it = vec ? Type(vec.clone(b.getI32Type())) : Type(b.getI32Type());
  auto constant = [&](Type t, TypedAttr scalar) -> Value {
    if (auto v = dyn_cast<VectorType>(t))
      return arith::ConstantOp::create(b, loc, SplatElementsAttr::get(v, scalar));
    return arith::ConstantOp::create(b, loc, scalar);
  };
  auto c = [&](double v) { return constant(ft, b.getF32FloatAttr(v)); };
  auto ci = [&](int64_t v) { return constant(it, b.getI32IntegerAttr(v)); };
  auto fma = [&](Value a, Value m, Value s) { return math::FmaOp::create(b, loc, a, m, s); };
  // Below -104 the result is 0 (exp(-104) < 2^-150 rounds to 0) and above
  // 89 inf, in float; clamping keeps 2^n in range. maxnumf/minnumf are
  // single instructions; NaN is put back at the end. The lanes below -104
  // compute exp(0) and are 0 at the end: computed at -104 (n = -150), the
  // last product is subnormal, which x86 finishes in microcode, a hundred
  // cycles or more a lane; a causal softmax's masked scores are all there
  // (the Llama block's softmax: most of its time).
  Value below, xc = x;
  if (guarded) {
    below = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, c(-104.0));
    xc = arith::SelectOp::create(
        b, loc, below, c(0.0),
        arith::MinNumFOp::create(b, loc, arith::MaxNumFOp::create(b, loc, x, c(-104.0)),
                                 c(89.0)));
  }
  Value n = math::RoundEvenOp::create(
      b, loc, arith::MulFOp::create(b, loc, xc, c(1.44269504088896341)));
  // r = x - n ln 2, ln 2 in two parts (Cephes' C1 + C2), exact for |n| < 2^9.
  Value r = fma(n, c(-0.693359375), xc);
  r = fma(n, c(2.12194440e-4), r);
  Value p = c(1.9875691500E-4);
  for (double k : {1.3981999507E-3, 8.3334519073E-3, 4.1665795894E-2, 1.6666665459E-1,
                   5.0000001201E-1})
    p = fma(p, r, c(k));
  Value y = arith::AddFOp::create(
      b, loc, fma(p, arith::MulFOp::create(b, loc, r, r), r), c(1.0));
  // 2^n as 2^(n/2) 2^(n - n/2): each half is a normal float for n in
  // [-150, 128], so the products round once, where the result does.
  Value e;
  if (Value scaled = x86Scalef ? scalef(b, loc, y, n) : Value()) {
    e = scaled;
  } else {
    Value ni = arith::FPToSIOp::create(b, loc, it, n);
    Value n1 = arith::ShRSIOp::create(b, loc, ni, ci(1));
    Value n2 = arith::SubIOp::create(b, loc, ni, n1);
    auto pow2 = [&](Value k) {
      Value bits = arith::ShLIOp::create(b, loc, arith::AddIOp::create(b, loc, k, ci(127)), ci(23));
      return arith::BitcastOp::create(b, loc, ft, bits);
    };
    e = arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, y, pow2(n1)), pow2(n2));
  }
  if (!guarded)
    return e;
  e = arith::SelectOp::create(b, loc, below, c(0.0), e);
  Value isNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  return arith::SelectOp::create(b, loc, isNan, x, e);
}

namespace {

/// A call of libm's f64 `name` on scalar or vector `x` (a call a lane).
Value callLibm(OpBuilder &b, Location loc, ModuleOp module, StringRef name, Value x) {
  Type f64 = b.getF64Type();
  FunctionType type = b.getFunctionType({f64}, {f64});
  Operation *existing = SymbolTable::lookupSymbolIn(module, name);
  if (!existing) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto decl = func::FuncOp::create(b, loc, name, type);
    decl.setPrivate();
  } else if (auto f = dyn_cast<func::FuncOp>(existing);
             !f || !f.isDeclaration() || f.getFunctionType() != type) {
    // A program's own function of that name: calling it would be wrong.
    existing->emitError() << "kf-host-math: '" << name
                          << "' is libm's function, which the CPU code of expm1 calls";
    return nullptr;
  }
  auto call = [&](Value v) {
    return func::CallOp::create(b, loc, name, TypeRange{f64}, ValueRange{v}).getResult(0);
  };
  auto vec = dyn_cast<VectorType>(x.getType());
  if (!vec)
    return call(x);
  auto flat = VectorType::get({vec.getNumElements()}, f64);
  Value in = vector::ShapeCastOp::create(b, loc, flat, x);
  SmallVector<Value> lanes;
  for (int64_t i = 0; i < flat.getNumElements(); ++i)
    lanes.push_back(call(vector::ExtractOp::create(b, loc, in, i)));
  Value out = vector::FromElementsOp::create(b, loc, flat, lanes);
  return vector::ShapeCastOp::create(b, loc, vec, out);
}

/// The float type of a scalar or a vector's elements, or null.
FloatType floatElement(Type t) {
  if (auto vec = dyn_cast<VectorType>(t))
    return dyn_cast<FloatType>(vec.getElementType());
  return dyn_cast<FloatType>(t);
}

struct KfHostMathPass : kfuse::impl::KfHostMathBase<KfHostMathPass> {
  using KfHostMathBase::KfHostMathBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // 1 + erf and 1 + tanh (both GELUs) first: in f32, without the
    // cancellation that made them need f64 (HostMathComplements.cpp).
    kfuse::host::rewriteComplements(module, x86Scalef);
    SmallVector<Operation *> ops;
    module->walk([&](Operation *op) {
      if (isa<math::TanhOp, math::ExpM1Op, math::RsqrtOp, math::ExpOp, math::ErfOp,
              math::LogOp>(op) &&
          floatElement(op->getResultTypes()[0]))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value x = op->getOperand(0);
      Type type = x.getType();
      FloatType elt = floatElement(type);
      Value y;
      if (isa<math::ExpOp>(op)) {
        if (elt.getWidth() > 32)
          continue; // f64: libm's exp
        // f16/bf16 through f32: one rounding more, below their ulp.
        Type f32 = isa<VectorType>(type) ? Type(cast<VectorType>(type).clone(b.getF32Type()))
                                         : Type(b.getF32Type());
        y = kfuse::host::expF32(
            b, loc, elt.isF32() ? x : arith::ExtFOp::create(b, loc, f32, x).getResult(), x86Scalef);
        if (!elt.isF32())
          y = arith::TruncFOp::create(b, loc, type, y);
      } else if (elt.getWidth() == 64) {
        if (!isa<math::ExpM1Op>(op))
          continue; // libm's tanh, erf and log, through math-to-libm; 1 / sqrt(x)
        y = callLibm(b, loc, module, "expm1", x);
        if (!y)
          return signalPassFailure();
      } else if (elt.getWidth() < 64) {
        F64Math m(b, loc, type);
        Value wide = arith::ExtFOp::create(b, loc, m.f64, x);
        if (isa<math::TanhOp>(op))
          y = m.tanh(wide);
        else if (isa<math::ErfOp>(op))
          y = m.erf(wide);
        else if (isa<math::LogOp>(op))
          y = m.log(wide);
        else if (isa<math::ExpM1Op>(op))
          y = m.expm1(wide);
        else
          y = arith::DivFOp::create(b, loc, m.c(1.0), math::SqrtOp::create(b, loc, wide));
        y = arith::TruncFOp::create(b, loc, type, y);
      } else {
        continue; // wider than f64: left to libm
      }
      op->getResult(0).replaceAllUsesWith(y);
      op->erase();
    }
  }
};

} // namespace
