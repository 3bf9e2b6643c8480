//===- KfDecompose.cpp - composites into primitive kf ops -----------------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"
#include "dialect/Kf/KfDialect.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"


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
  auto m = MaxOp::create(rewriter, loc, x, dims, rewriter.getUnitAttr());
  setStableShift(m);
  return SubOp::create(rewriter, loc, x, m);
}

/// PyTorch computes softmax, log_softmax and layer_norm of f16 and bf16
/// inputs in f32 and rounds the result once: the composite is written out
/// on an f32 copy of `x`, and `finish` converts its result back.
Value widened(PatternRewriter &rewriter, Location loc, Value x) {
  Type elt = cast<RankedTensorType>(x.getType()).getElementType();
  if (!isa<FloatType>(elt) || elt.getIntOrFloatBitWidth() >= 32)
    return x;
  return CastOp::create(rewriter, loc, x, TypeAttr::get(rewriter.getF32Type()));
}

/// Replaces `op` with `y`, rounded to the op's dtype and cast to its type
/// (a dynamic input dim met by a static weight gives the static size,
/// checked equal at run time; the op's type keeps the `?`).
void finish(PatternRewriter &rewriter, Operation *op, Value y) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Location loc = op->getLoc();
  if (cast<RankedTensorType>(y.getType()).getElementType() != type.getElementType())
    y = CastOp::create(rewriter, loc, y, TypeAttr::get(type.getElementType()));
  if (y.getType() != type)
    y = tensor::CastOp::create(rewriter, loc, type, y);
  rewriter.replaceOp(op, y);
}

/// Whether softmax's dim is a static 0: the result has no elements (and a
/// max over nothing is no value).
template <typename OpTy> bool overEmptyDim(OpTy op) {
  auto type = op.getInput().getType();
  int64_t dim = static_cast<int64_t>(op.getDim());
  if (dim < 0)
    dim += type.getRank();
  return type.getRank() > 0 && type.getDimSize(dim) == 0;
}

struct DecomposeSoftmax : OpRewritePattern<SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (overEmptyDim(op))
      return finish(rewriter, op, widened(rewriter, loc, op.getInput())), success();
    auto dims = rewriter.getDenseI64ArrayAttr({static_cast<int64_t>(op.getDim())});
    Value x = widened(rewriter, loc, op.getInput());
    Value e = ExpOp::create(rewriter, loc, shiftByMax(rewriter, loc, x, dims));
    Value z = SumOp::create(rewriter, loc, e, dims, rewriter.getUnitAttr());
    finish(rewriter, op, DivOp::create(rewriter, loc, e, z));
    return success();
  }
};

struct DecomposeLogSoftmax : OpRewritePattern<LogSoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LogSoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (overEmptyDim(op))
      return finish(rewriter, op, widened(rewriter, loc, op.getInput())), success();
    auto dims = rewriter.getDenseI64ArrayAttr({static_cast<int64_t>(op.getDim())});
    Value s = shiftByMax(rewriter, loc, widened(rewriter, loc, op.getInput()), dims);
    Value z = SumOp::create(rewriter, loc, ExpOp::create(rewriter, loc, s),
                            dims, rewriter.getUnitAttr());
    finish(rewriter, op, SubOp::create(rewriter, loc, s, LogOp::create(rewriter, loc, z)));
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
    Value x = widened(rewriter, loc, op.getInput());
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
    Type elt = cast<RankedTensorType>(x.getType()).getElementType();
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
    finish(rewriter, op, y);
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
