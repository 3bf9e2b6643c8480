//===- StructuredToLinalg.cpp - matmul and transpose to linalg ------------===//
#include "dialect/Kf/KfOps.h"
#include "passes/kf-to-linalg/Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace kfuse::kf;

namespace kfuse::lowering {
namespace {

/// 2-D: linalg.matmul. Batched (batch dims broadcast): one linalg.generic
/// with loops (batch..., m, n, k), since linalg.batch_matmul takes neither
/// several batch dims nor broadcasting ones.
struct MatmulToLinalg : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto rhsType = cast<RankedTensorType>(rhs.getType());
    auto resultType = op.getType();
    Type elt = resultType.getElementType();
    int64_t rank = resultType.getRank(), batch = rank - 2;

    if (lhsType.isDynamicDim(lhsType.getRank() - 1) ||
        rhsType.isDynamicDim(rhsType.getRank() - 2)) {
      Value k1 = dimValue(rewriter, loc, lhs, lhsType.getRank() - 1);
      Value k2 = dimValue(rewriter, loc, rhs, rhsType.getRank() - 2);
      Value eq = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       k1, k2);
      cf::AssertOp::create(rewriter, loc, eq,
                           "kf.matmul: inner dims differ at run time");
    }
    SmallVector<Value> sizes = broadcastSizes(
        rewriter, loc, op->getName().getStringRef(), {lhs, rhs},
        {lhsType.getRank() - 2, rhsType.getRank() - 2},
        resultType.getShape().drop_back(2));
    if (resultType.isDynamicDim(rank - 2))
      sizes.push_back(dimValue(rewriter, loc, lhs, lhsType.getRank() - 2));
    if (resultType.isDynamicDim(rank - 1))
      sizes.push_back(dimValue(rewriter, loc, rhs, rhsType.getRank() - 1));
    // f16 and bf16 products accumulate in f32 (as PyTorch's GEMMs do) and
    // are rounded once, by an op that finishes the matmul's kernel.
    Type resultElt = elt;
    if (isa<FloatType>(elt) && elt.getIntOrFloatBitWidth() < 32)
      elt = rewriter.getF32Type();
    auto accType = resultType.clone(elt);
    auto finish = [&](Operation *matmul) {
      tagKernel(matmul, op);
      Value result = matmul->getResult(0);
      if (elt != resultElt)
        result = finishReduction(rewriter, loc, result, resultElt, Value(), sizes);
      rewriter.replaceOp(op, result);
      return success();
    };
    Value init = emptyTensor(rewriter, loc, accType, sizes);
    Value zero = scalarConstant(rewriter, loc, elt, 0);
    init = linalg::FillOp::create(rewriter, loc, zero, init).getResult(0);

    if (batch == 0 && lhsType.getRank() == 2 && rhsType.getRank() == 2) {
      // linalg.matmul converts its operands to the result type itself.
      return finish(linalg::MatmulOp::create(rewriter, loc, accType,
                                             ValueRange{lhs, rhs},
                                             ValueRange{init}));
    }

    int64_t m = batch, n = batch + 1, k = batch + 2;
    ArrayRef<int64_t> batchShape = resultType.getShape().drop_back(2);
    BroadcastOperand a = broadcastOperand(rewriter, loc, lhs,
                                          lhsType.getRank() - 2, batchShape, {m, k});
    BroadcastOperand b = broadcastOperand(rewriter, loc, rhs,
                                          rhsType.getRank() - 2, batchShape, {k, n});
    SmallVector<int64_t> outLoops;
    for (int64_t i = 0; i < rank; ++i)
      outLoops.push_back(i);
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineMap> maps = {operandMap(ctx, rank + 1, a.loopDims),
                                   operandMap(ctx, rank + 1, b.loopDims),
                                   operandMap(ctx, rank + 1, outLoops)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    bool isFloat = isa<FloatType>(elt);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, accType, ValueRange{a.value, b.value}, init, maps,
        iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
          Value x = castScalar(nb, l, args[0], elt);
          Value y = castScalar(nb, l, args[1], elt);
          Value r = isFloat ? Value(arith::AddFOp::create(
                                  nb, l, args[2], arith::MulFOp::create(nb, l, x, y)))
                            : Value(arith::AddIOp::create(
                                  nb, l, args[2], arith::MulIOp::create(nb, l, x, y)));
          linalg::YieldOp::create(nb, l, r);
        });
    return finish(generic);
  }
};

/// Tensors are contiguous, so a transpose is a copy: linalg.transpose.
struct TransposeToLinalg : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> sizes;
    SmallVector<int64_t> perm = op.getNormalizedPermutation(); // -1: the last
    for (auto [i, p] : llvm::enumerate(perm))
      if (op.getType().isDynamicDim(i))
        sizes.push_back(dimValue(rewriter, loc, adaptor.getInput(), p));
    Value init = emptyTensor(rewriter, loc, op.getType(), sizes);
    auto transpose = linalg::TransposeOp::create(
        rewriter, loc, adaptor.getInput(), init, perm);
    tagKernel(transpose, op);
    rewriter.replaceOp(op, transpose.getResult());
    return success();
  }
};

} // namespace

void populateStructuredToLinalg(RewritePatternSet &patterns) {
  patterns.add<MatmulToLinalg, TransposeToLinalg>(patterns.getContext());
}

} // namespace kfuse::lowering
