//===- ElementwiseToLinalg.cpp - elementwise kf ops to linalg.generic -----===//
#include "dialect/Kf/KfOps.h"
#include "passes/kf-to-linalg/Lowering.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace kfuse::kf;

namespace kfuse::lowering {
namespace {

using ScalarFn =
    llvm::function_ref<Value(OpBuilder &, Location, ValueRange args)>;

/// One linalg.generic with parallel iterators that reads `operands`
/// broadcast to `resultType` and applies `fn` to one element of each.
Value buildBroadcastGeneric(OpBuilder &b, Location loc, StringRef opName,
                            ValueRange operands, RankedTensorType resultType,
                            ScalarFn fn) {
  ArrayRef<int64_t> shape = resultType.getShape();
  int64_t rank = shape.size();
  SmallVector<int64_t> ranks;
  for (Value v : operands)
    ranks.push_back(cast<RankedTensorType>(v.getType()).getRank());
  SmallVector<Value> sizes =
      broadcastSizes(b, loc, opName, operands, ranks, shape);
  Value init = emptyTensor(b, loc, resultType, sizes);

  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (Value v : operands) {
    BroadcastOperand operand = broadcastOperand(
        b, loc, v, cast<RankedTensorType>(v.getType()).getRank(), shape);
    inputs.push_back(operand.value);
    maps.push_back(operandMap(b.getContext(), rank, operand.loopDims));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, inputs, init, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value r = fn(nb, nloc, args.drop_back());
        linalg::YieldOp::create(nb, nloc, r);
      });
  return generic.getResult(0);
}

/// Any op with the KfElementwise trait.
struct ElementwiseToGeneric : ConversionPattern {
  ElementwiseToGeneric(MLIRContext *ctx)
      : ConversionPattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op->hasTrait<KfElementwise>())
      return failure();
    Type compute = computeType(op);
    bool isWhere = isa<WhereOp>(op);
    auto fn = [&](OpBuilder &b, Location loc, ValueRange args) {
      SmallVector<Value> converted;
      for (auto [i, a] : llvm::enumerate(args))
        converted.push_back(isWhere && i == 0 ? a
                                              : castScalar(b, loc, a, compute));
      return buildElementwiseScalar(b, loc, op, converted);
    };
    Value result = buildBroadcastGeneric(
        rewriter, op->getLoc(), op->getName().getStringRef(), operands,
        cast<RankedTensorType>(op->getResult(0).getType()), fn);
    tagKernel(result.getDefiningOp(), op);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A broadcast_to that no elementwise consumer absorbed must exist as a
/// tensor of its own: a copy kernel with a broadcasting read.
struct MaterializeBroadcast : OpConversionPattern<BroadcastToOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BroadcastToOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto fn = [](OpBuilder &, Location, ValueRange args) { return args[0]; };
    Value result =
        buildBroadcastGeneric(rewriter, op.getLoc(), op->getName().getStringRef(),
                              adaptor.getInput(), op.getType(), fn);
    tagKernel(result.getDefiningOp(), op);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateElementwiseToLinalg(RewritePatternSet &patterns) {
  patterns.add<ElementwiseToGeneric, MaterializeBroadcast>(
      patterns.getContext());
}

} // namespace kfuse::lowering
