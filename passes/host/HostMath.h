//===- HostMath.h - f32 math written out for the CPU (kf-host-math) -------===//
//
// The pieces of kf-host-math that one file shares with another: Cephes'
// expf in f32 arithmetic (KfHostMath.cpp) and the rewrite of 1 + erf and
// 1 + tanh into forms without cancellation (HostMathComplements.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_HOST_HOSTMATH_H
#define KFUSE_PASSES_HOST_HOSTMATH_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace kfuse::host {

/// exp(x) of f32, scalar or vector, in f32 arithmetic (at most 1.006 ulp).
/// With `x86Scalef`, 2^n of a vector of 4, 8 or 16 lanes is AVX-512's
/// vscalefps (kf-host-math's x86-scalef): the same bits. Without `guarded`
/// the caller promises x in [-110.25, 0], never NaN (erfc's exp(-a^2)): the
/// clamps and the NaN and underflow selects are left out (7 of its ~20
/// vector ops), and 2^n, n >= -160, still rounds a result past -104 to 0.
mlir::Value expF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                   bool x86Scalef = false, bool guarded = true);

/// Rewrites every f32 `1 + erf(z)` into erfc(-z) and `1 + tanh(y)` into
/// 2 / (1 + exp(-2y)), computed in f32 (HostMathComplements.cpp); their
/// exp as expF32 with `x86Scalef`.
void rewriteComplements(mlir::ModuleOp module, bool x86Scalef = false);

} // namespace kfuse::host

#endif // KFUSE_PASSES_HOST_HOSTMATH_H
