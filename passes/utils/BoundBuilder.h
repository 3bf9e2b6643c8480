//===- BoundBuilder.h - kf arithmetic on error bounds -----------*- C++ -*-===//
//
// kf-float64-reference computes, beside each float64 value, a bound on the
// error of the program in its working precision (Float64Reference.h). The
// bounds are f64 tensors computed with kf ops, so that they broadcast,
// reduce and view exactly as the values do; a null Value stands for a bound
// of exactly 0 (an input, a constant, an exact op on exact operands), so
// that exact parts of a program cost no ops.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_UTILS_BOUNDBUILDER_H
#define KFUSE_PASSES_UTILS_BOUNDBUILDER_H

#include "dialect/Kf/KfOps.h"

#include "mlir/IR/Builders.h"

namespace kfuse {

/// The unit roundoff of a kf dtype as the program computes it (0 for
/// integers and bool): 2^-11 f16, 2^-8 bf16, 2^-24 f32, and 2^-52 for f64,
/// twice f64's 2^-53 since the float64 reference rounds as often as the
/// program it bounds.
double unitRoundoff(mlir::Type elementType);

/// The largest finite value of a float dtype (infinity for others).
double largestFinite(mlir::Type elementType);

/// Builds kf ops on f64 tensors at the builder's insertion point. "Bound"
/// arguments may be null (exactly 0) where said.
class BoundBuilder {
public:
  BoundBuilder(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}

  mlir::Location location() const { return loc; }
  void setLocation(mlir::Location l) { loc = l; }
  mlir::OpBuilder &builder() { return b; }

  /// A 0-d f64 constant (broadcasts against anything).
  mlir::Value constant(double v);
  /// `x` as f64 (cast from an integer, bool or other float dtype).
  mlir::Value f64(mlir::Value x);
  /// 0.0 of `like`'s shape (also where `like` is NaN or infinite).
  mlir::Value zerosLike(mlir::Value like);

  // Null-aware: a null operand is 0.
  mlir::Value add(mlir::Value x, mlir::Value y);
  mlir::Value mul(mlir::Value x, mlir::Value y);
  mlir::Value scale(mlir::Value x, double k);
  mlir::Value max(mlir::Value x, mlir::Value y);

  // Operands must not be null; integers and bool are taken as f64.
  mlir::Value abs(mlir::Value x);
  mlir::Value sub(mlir::Value x, mlir::Value y);
  mlir::Value div(mlir::Value x, mlir::Value y);
  mlir::Value min(mlir::Value x, mlir::Value y);
  mlir::Value lt(mlir::Value x, mlir::Value y);
  mlir::Value le(mlir::Value x, mlir::Value y);
  mlir::Value ne(mlir::Value x, mlir::Value y);
  mlir::Value where(mlir::Value cond, mlir::Value x, mlir::Value y);
  template <typename OpTy> mlir::Value unary(mlir::Value x) {
    return OpTy::create(b, loc, f64(x));
  }

  /// `x` rounded toward zero to an integer (as a cast to an integer does),
  /// as f64; or to `elementType` (i1: x != 0) and back to f64.
  mlir::Value castThrough(mlir::Value x, mlir::Type elementType);

  /// `where(lt(x, limit), value, +inf)`: the bound is lost (infinite) where
  /// the interval reaches a pole or overflows.
  mlir::Value finiteBelow(mlir::Value value, mlir::Value x, mlir::Value limit);

  /// The number of elements a reduction over `dims` of `input` folds into
  /// each result, as f64: a constant when those dims are static, else a
  /// tensor broadcastable to the result (keepdim as given).
  mlir::Value count(mlir::Value input, llvm::ArrayRef<int64_t> dims, bool keepdim);

  mlir::Value sqrt(mlir::Value x);

private:
  mlir::OpBuilder &b;
  mlir::Location loc;
};

} // namespace kfuse

#endif // KFUSE_PASSES_UTILS_BOUNDBUILDER_H
