//===- KfCanonicalize.cpp - dialect-wide canonicalizations ----------------===//
#include "dialect/Kf/KfOps.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
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
/// kf-to-linalg applies it too (populatePowByConstantPatterns): a program
/// that was never canonicalized (the torch.compile backend's) still gets it.
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

/// reshape(slice(x)) -> slice(reshape(x)) when the reshape only splits the
/// slice's dims and every sliced dim keeps whole blocks of its split: the
/// head split of a fused q/k/v projection, `qkv[..., 768:1536].view(B, T,
/// 12, 64)`, is `qkv.view(B, T, 36, 64)[:, :, 12:24]`. A reshape of a slice
/// reads the slice from memory (kf-to-linalg makes the slice a copy); a
/// slice of a reshape is a view its readers read in place (the head
/// split's transpose, an attention kernel's q, k and v).
struct SliceBeforeReshape : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReshapeOp reshape,
                                PatternRewriter &rewriter) const override {
    auto slice = reshape.getInput().getDefiningOp<SliceOp>();
    if (!slice)
      return failure();
    auto in = cast<RankedTensorType>(slice.getInput().getType());
    auto mid = cast<RankedTensorType>(slice.getType());
    auto out = cast<RankedTensorType>(reshape.getType());
    if (!in.hasStaticShape() || !mid.hasStaticShape() || !out.hasStaticShape() ||
        out.getRank() <= mid.getRank() ||
        llvm::any_of(slice.getSteps(), [](int64_t s) { return s != 1; }))
      return failure();
    std::optional<SmallVector<ReassociationIndices>> groups =
        getReassociationIndicesForReshape(mid, out);
    if (!groups || groups->size() != (size_t)mid.getRank())
      return failure();
    SmallVector<int64_t> starts = slice.getNormalizedStarts();
    SmallVector<int64_t> shape, newStarts, newEnds;
    bool sliced = false;
    for (auto [i, group] : llvm::enumerate(*groups)) {
      int64_t inner = 1;
      for (int64_t d : ArrayRef(group).drop_front())
        inner *= out.getDimSize(d);
      int64_t size = in.getDimSize(i), start = starts[i], kept = mid.getDimSize(i);
      if (inner == 0 || start % inner || size % inner || kept % inner)
        return failure();
      sliced |= start != 0 || kept != size;
      shape.push_back(size / inner);
      newStarts.push_back(start / inner);
      newEnds.push_back((start + kept) / inner);
      for (int64_t d : ArrayRef(group).drop_front()) {
        shape.push_back(out.getDimSize(d));
        newStarts.push_back(0);
        newEnds.push_back(out.getDimSize(d));
      }
    }
    if (!sliced)
      return failure();
    Location loc = reshape.getLoc();
    Value whole = ReshapeOp::create(rewriter, loc, slice.getInput(),
                                    rewriter.getDenseI64ArrayAttr(shape));
    SmallVector<int64_t> steps(shape.size(), 1);
    rewriter.replaceOpWithNewOp<SliceOp>(reshape, whole, rewriter.getDenseI64ArrayAttr(newStarts),
                                         rewriter.getDenseI64ArrayAttr(newEnds),
                                         rewriter.getDenseI64ArrayAttr(steps));
    return success();
  }
};

/// outer(inner(x, D1), D2) -> outer(x, D1 u D2'), D2' being D2 in x's
/// dims (populateReductionChainPatterns). The merged op must type as the
/// outer one (sum's promotion: sum(int8) is int64 either way).
template <typename ReduceOp>
struct MergeReductionChain : OpRewritePattern<ReduceOp> {
  using OpRewritePattern<ReduceOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceOp outer, PatternRewriter &rewriter) const override {
    auto inner = outer.getInput().template getDefiningOp<ReduceOp>();
    if (!inner || !inner->hasOneUse() || inner.getKeepdim() != outer.getKeepdim())
      return failure();
    SmallVector<int64_t> innerDims = inner.getReducedDims();
    int64_t rank = inner.getInput().getType().getRank();
    // x's dims as the inner result numbers them.
    SmallVector<int64_t> place;
    for (int64_t d = 0; d < rank; ++d)
      if (inner.getKeepdim() || !llvm::is_contained(innerDims, d))
        place.push_back(d);
    SmallVector<int64_t> dims(innerDims);
    for (int64_t d : outer.getReducedDims())
      if (!llvm::is_contained(dims, place[d]))
        dims.push_back(place[d]);
    llvm::sort(dims);
    // A full reduction of a row reduction (x.sum(1).sum(0)) is one kernel
    // already (the row_chain mapping reads x once): left as written.
    if (int64_t(dims.size()) == rank)
      return failure();
    auto merged = ReduceOp::create(rewriter, outer.getLoc(), inner.getInput(),
                                   rewriter.getDenseI64ArrayAttr(dims), inner.getKeepdimAttr());
    if (merged.getType() != outer.getType()) {
      rewriter.eraseOp(merged);
      return failure();
    }
    rewriter.replaceOp(outer, merged.getResult());
    rewriter.eraseOp(inner);
    return success();
  }
};

} // namespace

void kfuse::kf::populateAbsorbBroadcastPatterns(RewritePatternSet &patterns) {
  patterns.add<AbsorbBroadcastIntoElementwise>(patterns.getContext());
}

void kfuse::kf::populateViewPlacementPatterns(RewritePatternSet &patterns) {
  patterns.add<SliceBeforeReshape>(patterns.getContext());
}

void kfuse::kf::populatePowByConstantPatterns(RewritePatternSet &patterns) {
  patterns.add<PowByConstantExponent>(patterns.getContext());
}

void kfuse::kf::populateReductionChainPatterns(RewritePatternSet &patterns) {
  patterns.add<MergeReductionChain<SumOp>, MergeReductionChain<MaxOp>,
               MergeReductionChain<MinOp>>(patterns.getContext());
}

void KfDialect::getCanonicalizationPatterns(RewritePatternSet &patterns) const {
  populateAbsorbBroadcastPatterns(patterns);
  populateViewPlacementPatterns(patterns);
  populatePowByConstantPatterns(patterns);
}
