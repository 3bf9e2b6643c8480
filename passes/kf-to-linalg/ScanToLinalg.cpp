//===- ScanToLinalg.cpp - kf.cumsum to a linalg.generic -------------------===//
//
// linalg has no scan (IREE keeps one in its own dialect, iree_linalg_ext.
// scan). kf.cumsum is written as what every linalg consumer understands: a
// reduction over a second loop `j` along the scanned dim whose terms are
// kept where `j <= i`,
//
//   out[l..., i] = sum_j (j <= i ? x[l..., j] : 0)
//
// (loops: the result's, then j, a reduction), the term converted to the
// accumulator first. Fusion, bufferization and the report see a reduction;
// the scan mapping (launch/ScanKernels.h) recognizes exactly this body and
// runs each line once, in order, instead of the n (n + 1) / 2 additions it
// spells.
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfOps.h"
#include "passes/kf-to-linalg/Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace kfuse::kf;

namespace kfuse::lowering {
namespace {

struct CumsumToGeneric : OpConversionPattern<CumsumOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(CumsumOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inType = cast<RankedTensorType>(input.getType());
    Type resultElt = op.getType().getElementType();
    int64_t rank = inType.getRank(), dim = op.getScannedDim();
    // f16 and bf16 accumulate in f32 (as PyTorch's CPU and CUDA kernels),
    // each element rounded once by the finishing generic.
    Type acc = resultElt;
    if (isa<FloatType>(acc) && acc.getIntOrFloatBitWidth() < 32)
      acc = rewriter.getF32Type();
    SmallVector<Value> sizes;
    for (int64_t i = 0; i < rank; ++i)
      if (inType.isDynamicDim(i))
        sizes.push_back(dimValue(rewriter, loc, input, i));
    auto accType = RankedTensorType::get(inType.getShape(), acc);
    Value init = emptyTensor(rewriter, loc, accType, sizes);
    Value zero = scalarConstant(rewriter, loc, acc, 0);
    init = linalg::FillOp::create(rewriter, loc, zero, init).getResult(0);

    // Loops: the result's (0 .. rank-1), then j (rank). The input is read
    // at j along `dim`.
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineExpr> read;
    for (int64_t i = 0; i < rank; ++i)
      read.push_back(getAffineDimExpr(i == dim ? rank : i, ctx));
    SmallVector<AffineMap> maps = {AffineMap::get(rank + 1, 0, read, ctx),
                                   AffineMap::getMultiDimIdentityMap(rank + 1, ctx)
                                       .getMajorSubMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, accType, input, init, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value i = linalg::IndexOp::create(b, l, dim);
          Value j = linalg::IndexOp::create(b, l, rank);
          Value kept = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ule, j, i);
          Value term = castScalar(b, l, args[0], acc);
          term = arith::SelectOp::create(b, l, kept, term, scalarConstant(b, l, acc, 0));
          Value sum = isa<FloatType>(acc) ? arith::AddFOp::create(b, l, args[1], term).getResult()
                                          : arith::AddIOp::create(b, l, args[1], term).getResult();
          linalg::YieldOp::create(b, l, sum);
        });
    tagKernel(generic, op);
    Value result = generic.getResult(0);
    if (acc != resultElt)
      result = finishReduction(rewriter, loc, result, resultElt, Value(), sizes);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateScanToLinalg(RewritePatternSet &patterns) {
  patterns.add<CumsumToGeneric>(patterns.getContext());
}

} // namespace kfuse::lowering
