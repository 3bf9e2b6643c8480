//===- AttentionMatch.h - the attention matcher's pieces --------*- C++ -*-===//
//
// Private to passes/analysis: what Attention.cpp (the matcher on a list of
// ops) and AttentionEndingAt.cpp (the list, gathered from a function)
// both ask of a linalg op.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_ANALYSIS_ATTENTIONMATCH_H
#define KFUSE_PASSES_ANALYSIS_ATTENTIONMATCH_H

#include "passes/analysis/Attention.h"
#include "passes/analysis/Views.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kfuse::analysis::attention {

using namespace mlir;

/// The value `op` produces: its result on tensors, its init on buffers.
inline Value produced(linalg::LinalgOp op) {
  return op.hasPureTensorSemantics() ? op->getResult(0) : op.getDpsInits()[0];
}

inline bool allParallel(linalg::LinalgOp op) {
  return op.getNumReductionLoops() == 0;
}

/// The one op of a body besides its yield, which yields it, or null.
inline Operation *soleOp(linalg::LinalgOp op) {
  Block &body = op->getRegion(0).front();
  if (body.getOperations().size() != 2)
    return nullptr;
  Operation *only = &body.front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (yield.getNumOperands() != 1 || yield.getOperand(0) != only->getResult(0))
    return nullptr;
  return only;
}

/// Whether `op` is a copy: an elementwise generic yielding its one input,
/// written in iteration order.
inline bool isCopy(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || !allParallel(op) || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return false;
  Block &body = generic.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  return body.getOperations().size() == 1 && yield.getNumOperands() == 1 &&
         yield.getOperand(0) == body.getArgument(0);
}

/// The map (d0, ..., d{n-1}) -> (d0, ..., d{n-2}): a row's value read at
/// every element of the row.
inline AffineMap rowMap(unsigned loops, MLIRContext *ctx) {
  return AffineMap::getMultiDimIdentityMap(loops, ctx).getMajorSubMap(loops - 1);
}

/// Whether `op` contracts as a (batched) matmul: loops (batch..., m, n,
/// k), k the one reduction, the result [batch..., m, n].
inline bool isContraction(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 || op.getNumLoops() < 3 ||
      op.getNumReductionLoops() != 1 ||
      op.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return false;
  unsigned loops = op.getNumLoops();
  return op.getMatchingIndexingMap(op.getDpsInitOperand(0)) ==
         AffineMap::getMultiDimIdentityMap(loops, op.getContext()).getMajorSubMap(loops - 1);
}

/// `v` through any reshapes that only add or drop unit dims: the value
/// with the same elements (its indices may differ by unit dims).
inline Value unitDimSource(Value v) {
  auto nonUnit = [](Value x) { return nonUnitDims(cast<ShapedType>(x.getType()).getShape()); };
  for (;;) {
    Operation *def = v.getDefiningOp();
    if (!isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp, memref::ExpandShapeOp,
                         memref::CollapseShapeOp>(def) ||
        nonUnit(def->getOperand(0)) != nonUnit(v))
      return v;
    v = def->getOperand(0);
  }
}

/// Whether a body is arith and math ops on scalars: what the host's
/// attention rebuilds on vectors of keys.
inline bool scalarArithmetic(linalg::LinalgOp op) {
  return llvm::all_of(op->getRegion(0).front().without_terminator(), [](Operation &inner) {
    return isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()) &&
           llvm::all_of(inner.getResultTypes(), [](Type t) { return t.isIntOrFloat(); });
  });
}

/// Whether a contraction's body is acc + a * b, as kf-to-linalg writes a
/// matmul's (no fast-math flags).
inline bool isMultiplyAdd(linalg::LinalgOp op) {
  Block &body = op->getRegion(0).front();
  if (body.getOperations().size() != 3)
    return false;
  auto mul = dyn_cast<arith::MulFOp>(&body.front());
  auto add = dyn_cast<arith::AddFOp>(mul ? mul->getNextNode() : nullptr);
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  return mul && add && yield.getOperand(0) == add.getResult() &&
         mul.getLhs() == body.getArgument(0) && mul.getRhs() == body.getArgument(1) &&
         add.getLhs() == body.getArgument(2) && add.getRhs() == mul.getResult() &&
         mul.getFastmath() == arith::FastMathFlags::none &&
         add.getFastmath() == arith::FastMathFlags::none;
}

} // namespace kfuse::analysis::attention

#endif // KFUSE_PASSES_ANALYSIS_ATTENTIONMATCH_H
