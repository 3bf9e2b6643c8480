//===- CompensatedSum.h - one step of a compensated float sum ---*- C++ -*-===//
//
// Float sums in kfuse are compensated (Kahan): a running sum's error grows
// with the number of terms (in f32, 2^25 ones stop at 2^24 and a million
// 0.1s are 1% off), the compensated sum's does not. PyTorch and numpy get
// the same effect with blocked pairwise sums; a compensated step fits the
// loops kfuse emits (a thread's stride over a row, a linalg reduction lowered
// to loops) without changing their shape. Shared by the GPU row mappings and
// the CPU lowering.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_LOWERING_COMPENSATEDSUM_H
#define KFUSE_PASSES_LOWERING_COMPENSATEDSUM_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

#include <utility>

namespace kfuse::lowering {

/// Adds `x` to the running `sum` whose lost low part is `lost`; returns the
/// new (sum, lost). The sum's best value is `sum - lost`. Once the sum is
/// no longer finite (an infinite term, an overflow) the compensation is 0,
/// so infinities add up as in a plain sum instead of giving inf - inf.
inline std::pair<mlir::Value, mlir::Value>
compensatedAdd(mlir::OpBuilder &b, mlir::Location loc, mlir::Value sum,
               mlir::Value lost, mlir::Value x) {
  using namespace mlir;
  Value y = arith::SubFOp::create(b, loc, x, lost);
  Value t = arith::AddFOp::create(b, loc, sum, y);
  Value newLost =
      arith::SubFOp::create(b, loc, arith::SubFOp::create(b, loc, t, sum), y);
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(t.getType(), 0.0));
  // t - t is 0 exactly when t is finite.
  Value finite = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                       arith::SubFOp::create(b, loc, t, t), zero);
  return {t, arith::SelectOp::create(b, loc, finite, newLost, zero)};
}

/// The float add that folds a term into a reduction's one output, when the
/// body is `out = addf(out, term)` (in either order), or null: the sums the
/// CPU lowering compensates (kf-compensated-sums), so that a GPU mapping
/// that folds the same terms in the same order (the flat mapping's small
/// reductions) gives the same bits.
inline mlir::arith::AddFOp compensatedSumCombiner(mlir::linalg::GenericOp op) {
  using namespace mlir;
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1)
    return nullptr;
  Block &body = op.getRegion().front();
  BlockArgument out = body.getArguments().back();
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || !out.hasOneUse() || (add.getLhs() != out && add.getRhs() != out))
    return nullptr;
  return add;
}

} // namespace kfuse::lowering

#endif // KFUSE_PASSES_LOWERING_COMPENSATEDSUM_H
