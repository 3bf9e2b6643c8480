//===- KfDecompose.cpp - composites into primitive kf ops -----------------===//
#include "passes/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "kf-decompose"

namespace kfuse {
#define GEN_PASS_DEF_KFDECOMPOSE
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;
using namespace kfuse;
using namespace kfuse::kf;

namespace {

/// x - max(x, dim, keepdim): the stable shift shared by both softmaxes.
Value shiftByMax(PatternRewriter &rewriter, Location loc, Value x,
                 DenseI64ArrayAttr dims) {
  Value m = MaxOp::create(rewriter, loc, x, dims, rewriter.getUnitAttr());
  return SubOp::create(rewriter, loc, x, m);
}

struct DecomposeSoftmax : OpRewritePattern<SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dims = rewriter.getDenseI64ArrayAttr({static_cast<int64_t>(op.getDim())});
    Value e = ExpOp::create(rewriter, loc,
                            shiftByMax(rewriter, loc, op.getInput(), dims));
    Value z = SumOp::create(rewriter, loc, e, dims, rewriter.getUnitAttr());
    rewriter.replaceOpWithNewOp<DivOp>(op, e, z);
    return success();
  }
};

struct DecomposeLogSoftmax : OpRewritePattern<LogSoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LogSoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dims = rewriter.getDenseI64ArrayAttr({static_cast<int64_t>(op.getDim())});
    Value s = shiftByMax(rewriter, loc, op.getInput(), dims);
    Value z = SumOp::create(rewriter, loc, ExpOp::create(rewriter, loc, s),
                            dims, rewriter.getUnitAttr());
    rewriter.replaceOpWithNewOp<SubOp>(op, s, LogOp::create(rewriter, loc, z));
    return success();
  }
};

/// (x - mean) * rsqrt(var + eps) [* weight] [+ bias], with the biased
/// variance mean((x - mean)^2), as torch.nn.functional.layer_norm.
struct DecomposeLayerNorm : OpRewritePattern<LayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LayerNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    SmallVector<int64_t> trailing;
    for (int64_t i = -(int64_t)op.getNormalizedShape().size(); i < 0; ++i)
      trailing.push_back(i);
    auto dims = rewriter.getDenseI64ArrayAttr(trailing);
    auto keep = rewriter.getUnitAttr();
    Value mean = MeanOp::create(rewriter, loc, x, dims, keep);
    Value centered = SubOp::create(rewriter, loc, x, mean);
    Value var = MeanOp::create(
        rewriter, loc, MulOp::create(rewriter, loc, centered, centered), dims,
        keep);
    Type elt = op.getType().getElementType();
    auto epsType = RankedTensorType::get({}, elt);
    Value eps = ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(epsType,
                               rewriter.getFloatAttr(elt, op.getEps().convertToDouble())));
    Value inv = RsqrtOp::create(rewriter, loc,
                                AddOp::create(rewriter, loc, var, eps));
    Value y = MulOp::create(rewriter, loc, centered, inv);
    if (op.getWeight())
      y = MulOp::create(rewriter, loc, y, op.getWeight());
    if (op.getBias())
      y = AddOp::create(rewriter, loc, y, op.getBias());
    // A dynamic input dim meets the static weight or bias: broadcasting
    // gives the static size (checked equal at run time), the op's type
    // keeps the `?`.
    if (y.getType() != op.getType())
      y = tensor::CastOp::create(rewriter, loc, op.getType(), y);
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct KfDecomposePass : kfuse::impl::KfDecomposeBase<KfDecomposePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateKfDecomposePatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void kfuse::populateKfDecomposePatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeSoftmax, DecomposeLogSoftmax, DecomposeLayerNorm>(
      patterns.getContext());
}
