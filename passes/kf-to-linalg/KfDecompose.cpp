//===- KfDecompose.cpp - composites into primitive kf ops -----------------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"
#include "dialect/Kf/KfDialect.h"

#include "dialect/Kf/KfTypeRules.h"
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

/// The copy of `x` that moments (mean and variance) are taken on. With
/// `f64Moments` (the CPU pipelines) f32, f16 and bf16 are widened to f64,
/// as PyTorch's CPU var accumulates f32 in double: squares of f32 values
/// past 1.8e19 overflow f32 but not f64, and a row's mean is exact where
/// the f32 one is not (a row of n copies of 0.7f sums exactly in f64, so
/// its mean is 0.7f and x - mean is 0; in f32 the sum, then the division,
/// round). Otherwise (the GPU, as PyTorch's CUDA kernels) f16 and bf16 are
/// widened to f32.
Value momentsInput(PatternRewriter &rewriter, Location loc, Value x, bool f64Moments) {
  Type elt = cast<RankedTensorType>(x.getType()).getElementType();
  if (!f64Moments || !isa<FloatType>(elt) || elt.getIntOrFloatBitWidth() >= 64)
    return widened(rewriter, loc, x);
  return CastOp::create(rewriter, loc, x, TypeAttr::get(rewriter.getF64Type()));
}

/// `y` (a normalized value computed in f64 by momentsInput's choice) back
/// in f32, where the op's weight and bias apply as PyTorch applies them.
Value narrowed(PatternRewriter &rewriter, Location loc, Value y, Value x) {
  Type elt = cast<RankedTensorType>(y.getType()).getElementType();
  Type in = cast<RankedTensorType>(x.getType()).getElementType();
  if (elt == in || !elt.isF64())
    return y;
  return CastOp::create(rewriter, loc, y, TypeAttr::get(rewriter.getF32Type()));
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

/// A 0-d constant tensor of float type `elt`.
Value scalarTensor(PatternRewriter &rewriter, Location loc, Type elt,
                   double value) {
  auto type = RankedTensorType::get({}, elt);
  return ConstantOp::create(rewriter, loc,
                            DenseElementsAttr::get(type, rewriter.getFloatAttr(elt, value)));
}

/// The last `n` dims, as negative indices: -n, ..., -1.
SmallVector<int64_t> lastDims(size_t n) {
  SmallVector<int64_t> dims;
  for (int64_t i = -(int64_t)n; i < 0; ++i)
    dims.push_back(i);
  return dims;
}

/// centered * rsqrt(var + eps) [* weight] [+ bias]: the normalization that
/// layer_norm, rms_norm and batch_norm share (weight and bias may be null).
/// An f64 `centered` (layer_norm's f64 moments) is normalized in f64 and
/// rounded to f32 before the weight and the bias: a variance of 9e76 (rows
/// of +-3e38) has an rsqrt that is no normal f32, and x - mean itself may
/// pass f32's range. An f32 `centered` (rms_norm's x) meets the rsqrt
/// rounded to f32.
Value normalize(PatternRewriter &rewriter, Location loc, Value centered, Value var,
                double eps, Value weight, Value bias, Value input) {
  Type elt = cast<RankedTensorType>(var.getType()).getElementType();
  Value inv = RsqrtOp::create(rewriter, loc,
                              AddOp::create(rewriter, loc, var,
                                            scalarTensor(rewriter, loc, elt, eps)));
  Type centeredElt = cast<RankedTensorType>(centered.getType()).getElementType();
  if (centeredElt != elt) // rms_norm: an f64 mean square, the product in f32
    inv = CastOp::create(rewriter, loc, inv, TypeAttr::get(centeredElt));
  Value y = narrowed(rewriter, loc, MulOp::create(rewriter, loc, centered, inv), input);
  if (weight)
    y = MulOp::create(rewriter, loc, y, weight);
  if (bias)
    y = AddOp::create(rewriter, loc, y, bias);
  return y;
}

/// (x - mean) * rsqrt(var + eps) [* weight] [+ bias], with the biased
/// variance mean((x - mean)^2), as torch.nn.functional.layer_norm.
struct DecomposeLayerNorm : OpRewritePattern<LayerNormOp> {
  DecomposeLayerNorm(MLIRContext *ctx, bool f64Moments)
      : OpRewritePattern(ctx), f64Moments(f64Moments) {}
  bool f64Moments;
  LogicalResult matchAndRewrite(LayerNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = momentsInput(rewriter, loc, op.getInput(), f64Moments);
    SmallVector<int64_t> trailing = lastDims(op.getNormalizedShape().size());
    auto dims = rewriter.getDenseI64ArrayAttr(trailing);
    auto keep = rewriter.getUnitAttr();
    Value mean = MeanOp::create(rewriter, loc, x, dims, keep);
    Value centered = SubOp::create(rewriter, loc, x, mean);
    Value var = MeanOp::create(
        rewriter, loc, MulOp::create(rewriter, loc, centered, centered), dims,
        keep);
    finish(rewriter, op, normalize(rewriter, loc, centered, var, op.getEps().convertToDouble(),
                                   op.getWeight(), op.getBias(), op.getInput()));
    return success();
  }
};


Type elementType(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

/// The variance of `op`'s input over its dims, two-pass as layer_norm's:
/// sum((x - mean)^2) / max(n - correction, 0). n is the product of the
/// reduced sizes: a constant when they are static, else counted.
template <typename OpTy>
Value variance(PatternRewriter &rewriter, OpTy op, bool f64Moments) {
  Location loc = op.getLoc();
  Value x = momentsInput(rewriter, loc, op.getInput(), f64Moments);
  auto type = cast<RankedTensorType>(x.getType());
  Type elt = type.getElementType();
  DenseI64ArrayAttr dims = op.getDimsAttr();
  Value mean = MeanOp::create(rewriter, loc, x, dims, rewriter.getUnitAttr());
  Value centered = SubOp::create(rewriter, loc, x, mean);
  Value squares = SumOp::create(rewriter, loc,
                                MulOp::create(rewriter, loc, centered, centered),
                                dims, op.getKeepdimAttr());
  SmallVector<int64_t> reduced = normalizeReduceDims(type.getRank(), op.getDims());
  int64_t correction = op.getCorrection();
  bool isStatic = llvm::all_of(reduced, [&](int64_t d) { return !type.isDynamicDim(d); });
  Value divisor;
  if (isStatic) {
    int64_t n = 1;
    for (int64_t d : reduced)
      n *= type.getDimSize(d);
    divisor = scalarTensor(rewriter, loc, elt, (double)std::max<int64_t>(n - correction, 0));
  } else {
    // A dynamic n is counted in kf, as a sum of trues over the same rows
    // (x == x or x != x holds for every element, NaN included): a second
    // reduction of the same family, so it joins the row kernel, and no
    // host code computes a value the kernel reads.
    Value all = AddOp::create(rewriter, loc, EqOp::create(rewriter, loc, x, x),
                              NeOp::create(rewriter, loc, x, x));
    Value n = SumOp::create(rewriter, loc, all, dims, op.getKeepdimAttr());
    n = CastOp::create(rewriter, loc, n, TypeAttr::get(elt));
    divisor = ReluOp::create(
        rewriter, loc,
        SubOp::create(rewriter, loc, n, scalarTensor(rewriter, loc, elt, (double)correction)));
  }
  return DivOp::create(rewriter, loc, squares, divisor);
}

/// torch.var: the sum of squared deviations over n - correction.
struct DecomposeVar : OpRewritePattern<VarOp> {
  DecomposeVar(MLIRContext *ctx, bool f64Moments) : OpRewritePattern(ctx), f64Moments(f64Moments) {}
  bool f64Moments;
  LogicalResult matchAndRewrite(VarOp op, PatternRewriter &rewriter) const override {
    finish(rewriter, op, variance(rewriter, op, f64Moments));
    return success();
  }
};

/// torch.std: the square root of the variance.
struct DecomposeStd : OpRewritePattern<StdOp> {
  DecomposeStd(MLIRContext *ctx, bool f64Moments) : OpRewritePattern(ctx), f64Moments(f64Moments) {}
  bool f64Moments;
  LogicalResult matchAndRewrite(StdOp op, PatternRewriter &rewriter) const override {
    finish(rewriter, op,
           SqrtOp::create(rewriter, op.getLoc(), variance(rewriter, op, f64Moments)));
    return success();
  }
};

/// torch.finfo(t).eps: 2^-(mantissa bits).
double machineEpsilon(Type t) {
  if (t.isF16())
    return 0x1p-10;
  if (t.isBF16())
    return 0x1p-7;
  if (t.isF64())
    return 0x1p-52;
  return 0x1p-23;
}

/// x * rsqrt(mean(x * x) + eps) [* weight], as torch.nn.functional.rms_norm.
struct DecomposeRmsNorm : OpRewritePattern<RmsNormOp> {
  DecomposeRmsNorm(MLIRContext *ctx, bool f64Moments)
      : OpRewritePattern(ctx), f64Moments(f64Moments) {}
  bool f64Moments;
  LogicalResult matchAndRewrite(RmsNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = momentsInput(rewriter, loc, op.getInput(), f64Moments);
    SmallVector<int64_t> trailing = lastDims(op.getNormalizedShape().size());
    Value meanSquare = MeanOp::create(rewriter, loc, MulOp::create(rewriter, loc, x, x),
                                      rewriter.getDenseI64ArrayAttr(trailing),
                                      rewriter.getUnitAttr());
    double eps = op.getEps() ? op.getEps()->convertToDouble()
                             : machineEpsilon(elementType(op.getInput()));
    // The product stays f32 (PyTorch's): the f64 mean square is what f32
    // overflows in, and x * rsqrt in f64 cost a third more on rows in
    // cache. rsqrt in f32 is a normal number unless |x| passes 1e38 (then
    // a denormal: a few bits fewer, no overflow).
    // x itself where the moments are taken in f32 (one cast, not two).
    Value product = elementType(x) == elementType(op.getInput()) || !elementType(x).isF64()
                        ? x
                        : widened(rewriter, loc, op.getInput());
    finish(rewriter, op,
           normalize(rewriter, loc, product, meanSquare, eps, op.getWeight(), Value(),
                     op.getInput()));
    return success();
  }
};

/// (x - mean) * rsqrt(var + eps) [* weight] [+ bias] with the [C]
/// parameters reshaped to [C, 1, ...] so that they broadcast over dim 1.
struct DecomposeBatchNorm : OpRewritePattern<BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = widened(rewriter, loc, op.getInput());
    int64_t rank = op.getInput().getType().getRank();
    SmallVector<int64_t> channelShape(rank - 1, 1);
    channelShape[0] = -1;
    auto perChannel = [&](Value p) -> Value {
      if (!p)
        return p;
      p = widened(rewriter, loc, p);
      if (rank == 2)
        return p;
      return ReshapeOp::create(rewriter, loc, p,
                               rewriter.getDenseI64ArrayAttr(channelShape));
    };
    Value mean = perChannel(op.getRunningMean());
    Value var = perChannel(op.getRunningVar());
    Value centered = SubOp::create(rewriter, loc, x, mean);
    finish(rewriter, op, normalize(rewriter, loc, centered, var, op.getEps().convertToDouble(),
                                   perChannel(op.getWeight()), perChannel(op.getBias()), x));
    return success();
  }
};

/// argmax/argmin: the extreme m along dim, then the least index where x
/// equals m or is NaN (m is NaN exactly when the row holds one), as
/// min(where(hit, iota, n)) over the same rows.
template <typename OpTy, typename ExtremeOp>
struct DecomposeArgExtreme : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    auto type = cast<RankedTensorType>(x.getType());
    int64_t dim;
    if (auto d = op.getDim(); d && type.getRank() > 0) {
      dim = static_cast<int64_t>(*d); // I64Attr's getter is unsigned
      if (dim < 0)
        dim += type.getRank();
    } else {
      if (type.getRank() != 1)
        x = ReshapeOp::create(rewriter, loc, x, rewriter.getDenseI64ArrayAttr({-1}));
      type = cast<RankedTensorType>(x.getType());
      dim = 0;
    }
    int64_t n = type.getDimSize(dim);
    auto dims = rewriter.getDenseI64ArrayAttr({dim});
    Value m = ExtremeOp::create(rewriter, loc, x, dims, rewriter.getUnitAttr());
    Value hit = EqOp::create(rewriter, loc, x, m);
    if (isa<FloatType>(type.getElementType()))
      hit = AddOp::create(rewriter, loc, hit, NeOp::create(rewriter, loc, x, x));
    Type i64 = rewriter.getI64Type();
    SmallVector<int64_t> iotaShape(type.getRank() - dim, 1);
    iotaShape[0] = n;
    SmallVector<int64_t> iotaValues(n);
    for (int64_t i = 0; i < n; ++i)
      iotaValues[i] = i;
    auto iotaType = RankedTensorType::get(iotaShape, i64);
    Value iota = ConstantOp::create(rewriter, loc,
                                    DenseElementsAttr::get(iotaType, ArrayRef(iotaValues)));
    Value past = ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(RankedTensorType::get({}, i64), ArrayRef<int64_t>{n}));
    Value candidates = WhereOp::create(rewriter, loc, hit, iota, past);
    bool keep = op.getKeepdim() && op.getDim();
    Value r = MinOp::create(rewriter, loc, candidates, dims,
                            keep ? rewriter.getUnitAttr() : UnitAttr());
    auto resultType = cast<RankedTensorType>(op.getType());
    if (r.getType() != resultType)
      r = ReshapeOp::create(rewriter, loc, r,
                            rewriter.getDenseI64ArrayAttr(resultType.getShape()));
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct KfDecomposePass : kfuse::impl::KfDecomposeBase<KfDecomposePass> {
  using KfDecomposeBase::KfDecomposeBase;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateKfDecomposePatterns(patterns, f64Moments);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void kfuse::populateKfDecomposePatterns(RewritePatternSet &patterns, bool f64Moments) {
  patterns.add<DecomposeSoftmax, DecomposeLogSoftmax, DecomposeBatchNorm,
               DecomposeArgExtreme<ArgmaxOp, MaxOp>,
               DecomposeArgExtreme<ArgminOp, MinOp>>(patterns.getContext());
  patterns.add<DecomposeLayerNorm, DecomposeVar, DecomposeStd, DecomposeRmsNorm>(
      patterns.getContext(), f64Moments);
}
