//===- ReductionToLinalg.cpp - kf reductions to linalg.generic ------------===//
#include "dialect/Kf/KfOps.h"
#include "passes/kf-to-linalg/Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

#include <limits>

using namespace mlir;
using namespace kfuse::kf;

namespace kfuse::lowering {
namespace {

enum class Combine { Sum, Mean, Max, Min };

/// The combining function on an accumulator of type `t`, as upstream names
/// it: floats keep NaN (maximumf, as torch.amax does), bools combine with
/// or/and, other integers are signed.
arith::AtomicRMWKind combiningKind(Combine kind, Type t) {
  bool isFloat = isa<FloatType>(t), isBool = t.isInteger(1);
  switch (kind) {
  case Combine::Sum:
  case Combine::Mean:
    return isFloat ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi;
  case Combine::Max:
    return isFloat  ? arith::AtomicRMWKind::maximumf
           : isBool ? arith::AtomicRMWKind::ori
                    : arith::AtomicRMWKind::maxs;
  case Combine::Min:
    return isFloat  ? arith::AtomicRMWKind::minimumf
           : isBool ? arith::AtomicRMWKind::andi
                    : arith::AtomicRMWKind::mins;
  }
  llvm_unreachable("unknown reduction");
}

/// The accumulator's start value: the identity of the combining function
/// (0, -inf, +inf, the signed minimum or maximum, false, true).
Value identity(OpBuilder &b, Location loc, Type t, Combine kind) {
  return arith::ConstantOp::create(
      b, loc,
      arith::getIdentityValueAttr(combiningKind(kind, t), t, b, loc));
}

Value combine(OpBuilder &b, Location loc, Combine kind, Value acc, Value x) {
  return arith::getReductionOp(combiningKind(kind, acc.getType()), b, loc,
                               acc, x);
}

template <typename OpTy, Combine kind>
struct ReductionToGeneric : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inType = cast<RankedTensorType>(input.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    Type acc = resultType.getElementType();
    SmallVector<int64_t> reduced = op.getReducedDims();
    int64_t rank = inType.getRank();

    // The reduction itself produces the result without the kept unit dims.
    SmallVector<int64_t> outShape, outLoops;
    SmallVector<Value> outSizes;
    SmallVector<utils::IteratorType> iterators;
    for (int64_t i = 0; i < rank; ++i) {
      bool isReduced = llvm::is_contained(reduced, i);
      iterators.push_back(isReduced ? utils::IteratorType::reduction
                                    : utils::IteratorType::parallel);
      if (isReduced)
        continue;
      outShape.push_back(inType.getDimSize(i));
      outLoops.push_back(i);
      if (inType.isDynamicDim(i))
        outSizes.push_back(dimValue(rewriter, loc, input, i));
    }
    // Sums accumulate in f32 for f16 and bf16 (as PyTorch does) and are
    // rounded once, at the end; max and min are exact in any type.
    bool isSum = kind == Combine::Sum || kind == Combine::Mean;
    Type resultElt = acc;
    if (isSum && isa<FloatType>(acc) && acc.getIntOrFloatBitWidth() < 32)
      acc = rewriter.getF32Type();
    if ((kind == Combine::Max || kind == Combine::Min) && rank > 0 &&
        !isStableShift(op)) {
      // Static empty dims were refused by the verifier; dynamic ones here.
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      for (int64_t d : reduced)
        if (inType.isDynamicDim(d))
          cf::AssertOp::create(
              rewriter, loc,
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                    dimValue(rewriter, loc, input, d), zero),
              (op->getName().getStringRef() +
               ": max and min of an empty dim have no value")
                  .str());
    }
    auto outType = RankedTensorType::get(outShape, acc);
    Value init = emptyTensor(rewriter, loc, outType, outSizes);
    Value start = identity(rewriter, loc, acc, kind);
    init = linalg::FillOp::create(rewriter, loc, start, init).getResult(0);

    SmallVector<AffineMap> maps = {
        rewriter.getMultiDimIdentityMap(rank),
        operandMap(rewriter.getContext(), rank, outLoops)};
    auto generic = linalg::GenericOp::create(
        rewriter, loc, outType, input, init, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = castScalar(b, l, args[0], acc);
          linalg::YieldOp::create(b, l, combine(b, l, kind, args[1], x));
        });
    tagKernel(generic, op);
    Value result = generic.getResult(0);

    // mean is the sum divided by the count (an empty dim gives 0 / 0 = NaN,
    // as torch.mean does), in the same kernel as the sum.
    Value count;
    if (kind == Combine::Mean) {
      Value n = arith::ConstantIndexOp::create(rewriter, loc, 1);
      for (int64_t d : reduced)
        n = arith::MulIOp::create(rewriter, loc, n,
                                  dimValue(rewriter, loc, input, d));
      n = arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), n);
      count = arith::SIToFPOp::create(rewriter, loc, acc, n);
    }
    if (count || acc != resultElt)
      result = finishReduction(rewriter, loc, result, resultElt, count, outSizes);

    if (resultType.getShape() != ArrayRef<int64_t>(outShape)) { // keepdim
      SmallVector<ReassociationIndices> groups;
      ReassociationIndices pending;
      for (int64_t i = 0; i < rank; ++i) {
        pending.push_back(i);
        if (llvm::is_contained(reduced, i))
          continue;
        groups.push_back(pending);
        pending.clear();
      }
      if (!groups.empty())
        groups.back().append(pending.begin(), pending.end());
      result = tensor::ExpandShapeOp::create(rewriter, loc, resultType, result,
                                             groups);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

Value finishReduction(OpBuilder &b, Location loc, Value acc, Type resultElt,
                      Value divisor, ValueRange dynamicSizes) {
  auto accType = cast<RankedTensorType>(acc.getType());
  Value init = emptyTensor(b, loc, accType.clone(resultElt), dynamicSizes);
  AffineMap id = b.getMultiDimIdentityMap(accType.getRank());
  SmallVector<utils::IteratorType> parallel(accType.getRank(),
                                            utils::IteratorType::parallel);
  auto finish = linalg::GenericOp::create(
      b, loc, init.getType(), acc, init, {id, id}, parallel,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value v = args[0];
        if (divisor)
          v = arith::DivFOp::create(nb, l, v, divisor);
        linalg::YieldOp::create(nb, l, castScalar(nb, l, v, resultElt));
      });
  setFinisher(finish);
  return finish.getResult(0);
}

void populateReductionToLinalg(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ReductionToGeneric<SumOp, Combine::Sum>,
               ReductionToGeneric<MeanOp, Combine::Mean>,
               ReductionToGeneric<MaxOp, Combine::Max>,
               ReductionToGeneric<MinOp, Combine::Min>>(ctx);
}

} // namespace kfuse::lowering
