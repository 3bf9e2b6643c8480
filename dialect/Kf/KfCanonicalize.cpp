//===- KfCanonicalize.cpp - dialect-wide canonicalizations ----------------===//
#include "dialect/Kf/KfOps.h"

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
} // namespace

void kfuse::kf::populateAbsorbBroadcastPatterns(RewritePatternSet &patterns) {
  patterns.add<AbsorbBroadcastIntoElementwise>(patterns.getContext());
}

void KfDialect::getCanonicalizationPatterns(RewritePatternSet &patterns) const {
  populateAbsorbBroadcastPatterns(patterns);
}
