//===- KfCanonicalize.cpp - dialect-wide canonicalizations ----------------===//
#include "dialect/Kf/KfOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace kfuse::kf;

namespace {
/// elementwise(broadcast_to(x), y) -> elementwise(x, y) when the op's own
/// broadcasting gives the same result type. The type check matters: a 0-d x
/// stretched by broadcast_to becomes a dimensioned tensor, which can change
/// the promoted dtype.
struct AbsorbBroadcastIntoElementwise : RewritePattern {
  AbsorbBroadcastIntoElementwise(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!op->hasTrait<KfElementwise>())
      return failure();
    auto infer = cast<InferTypeOpInterface>(op);
    SmallVector<Value> operands(op->getOperands());
    bool changed = false;
    for (Value &operand : operands) {
      auto broadcast = operand.getDefiningOp<BroadcastToOp>();
      if (!broadcast)
        continue;
      Value previous = operand;
      operand = broadcast.getInput();
      SmallVector<Type> types;
      if (failed(infer.inferReturnTypes(
              op->getContext(), std::nullopt, operands, op->getAttrDictionary(),
              op->getPropertiesStorage(), op->getRegions(), types)) ||
          types.front() != op->getResult(0).getType()) {
        operand = previous;
        continue;
      }
      changed = true;
    }
    if (!changed)
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op->setOperands(operands); });
    return success();
  }
};

/// pow(x, c) for the constant exponents PyTorch's own pow kernels compute
/// without pow (ATen's pow_tensor_scalar_optimized_kernel on the CPU and
/// pow_tensor_scalar_kernel on CUDA): 2 as x * x, 3 as x * x * x, 0.5 as
/// sqrt, -0.5 as rsqrt, -1 as reciprocal, -2 as reciprocal(x * x). So the
/// values are PyTorch's, and on the CPU they are vector code where pow is
/// a scalar libm call (transformers' GPT-2 GELU computes pow(x, 3.0)).
/// Integers take 2 and 3 only. Only where the exponent does not change
/// the result's type (a 0-d or splat constant of x's dtype class).
struct PowByConstantExponent : OpRewritePattern<PowOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(PowOp op, PatternRewriter &rewriter) const override {
    Value x = op.getLhs();
    if (op.getType() != x.getType())
      return failure();
    DenseElementsAttr exponent;
    if (!matchPattern(op.getRhs(), m_Constant(&exponent)) || !exponent.isSplat())
      return failure();
    Type elt = exponent.getElementType();
    double c;
    if (isa<FloatType>(elt))
      c = exponent.getSplatValue<APFloat>().convertToDouble();
    else if (elt.isSignlessInteger() && elt.getIntOrFloatBitWidth() > 1)
      c = double(exponent.getSplatValue<APInt>().getSExtValue());
    else
      return failure();
    bool isFloat = isa<FloatType>(getElementTypeOrSelf(x.getType()));
    Location loc = op.getLoc();
    auto square = [&] { return MulOp::create(rewriter, loc, x, x).getResult(); };
    Value result;
    if (c == 2)
      result = square();
    else if (c == 3)
      result = MulOp::create(rewriter, loc, square(), x);
    else if (!isFloat)
      return failure();
    else if (c == 0.5)
      result = SqrtOp::create(rewriter, loc, x);
    else if (c == -0.5)
      result = RsqrtOp::create(rewriter, loc, x);
    else if (c == -1)
      result = ReciprocalOp::create(rewriter, loc, x);
    else if (c == -2)
      result = ReciprocalOp::create(rewriter, loc, square());
    else
      return failure();
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void kfuse::kf::populateAbsorbBroadcastPatterns(RewritePatternSet &patterns) {
  patterns.add<AbsorbBroadcastIntoElementwise>(patterns.getContext());
}

void KfDialect::getCanonicalizationPatterns(RewritePatternSet &patterns) const {
  populateAbsorbBroadcastPatterns(patterns);
  patterns.add<PowByConstantExponent>(patterns.getContext());
}
