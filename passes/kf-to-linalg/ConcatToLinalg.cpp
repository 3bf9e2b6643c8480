//===- ConcatToLinalg.cpp - kf.cat as one linalg.generic ------------------===//
//
// torch.cat is one eager kernel, and kernel formation must see it as one op:
// a linalg.generic over the result, all loops parallel, that reads every
// input and yields the element of the input owning each position (picked
// with linalg.index along the joined dim). An input of size s placed at
// offset o is read through the map `i -> (i - o) mod s` along that dim (the
// identity elsewhere): an index inside the input wherever the loop is, so
// every read is in bounds, and the right one where the input owns the
// element. The flat GPU mapping runs it as any pointwise kernel: one
// element a thread, operands read through their maps (no vector accesses,
// since the body reads linalg.index).
//
//===----------------------------------------------------------------------===//
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

struct CatToGeneric : OpConversionPattern<CatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type elt = resultType.getElementType();
    int64_t rank = resultType.getRank();
    int64_t dim = static_cast<int64_t>(op.getDim()); // the getter is unsigned
    if (dim < 0)
      dim += rank;
    MLIRContext *ctx = rewriter.getContext();

    // The result's dynamic sizes (the first input's); every other input's
    // dynamic dims must equal them, checked at run time.
    SmallVector<Value> sizes;
    Value first = adaptor.getInputs().front();
    for (int64_t i = 0; i < rank; ++i) {
      if (!resultType.isDynamicDim(i))
        continue;
      sizes.push_back(dimValue(rewriter, loc, first, i));
    }
    for (auto [k, input] : llvm::enumerate(adaptor.getInputs())) {
      auto type = cast<RankedTensorType>(input.getType());
      for (int64_t i = 0; i < rank; ++i) {
        if (i == dim || !type.isDynamicDim(i) || (k == 0 && resultType.isDynamicDim(i)))
          continue;
        Value expected = resultType.isDynamicDim(i)
                             ? dimValue(rewriter, loc, first, i)
                             : arith::ConstantIndexOp::create(
                                   rewriter, loc, resultType.getDimSize(i))
                                   .getResult();
        Value same = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                           dimValue(rewriter, loc, input, i), expected);
        cf::AssertOp::create(rewriter, loc, same,
                             "kf.cat: the tensors differ in a dim other than the "
                             "joined one");
      }
    }

    // Inputs that own elements (an empty one owns none, and a map modulo 0
    // would not exist), each with the end of its range along `dim`.
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    SmallVector<int64_t> ends;
    int64_t offset = 0;
    for (Value input : adaptor.getInputs()) {
      int64_t size = cast<RankedTensorType>(input.getType()).getDimSize(dim);
      if (size == 0)
        continue;
      SmallVector<AffineExpr> exprs;
      for (int64_t i = 0; i < rank; ++i) {
        AffineExpr d = getAffineDimExpr(i, ctx);
        exprs.push_back(i == dim ? (d - offset) % size : d);
      }
      offset += size;
      inputs.push_back(input);
      maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
      ends.push_back(offset);
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    Value init = emptyTensor(rewriter, loc, resultType, sizes);
    SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, resultType, inputs, init, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          if (inputs.empty()) { // no element to write
            linalg::YieldOp::create(b, l, scalarConstant(b, l, elt, 0));
            return;
          }
          Value index = linalg::IndexOp::create(b, l, dim);
          Value v = castScalar(b, l, args[inputs.size() - 1], elt);
          for (int64_t k = (int64_t)inputs.size() - 2; k >= 0; --k) {
            Value inside = arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::ult, index,
                arith::ConstantIndexOp::create(b, l, ends[k]));
            v = arith::SelectOp::create(b, l, inside, castScalar(b, l, args[k], elt), v);
          }
          linalg::YieldOp::create(b, l, v);
        });
    tagKernel(generic, op);
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void populateConcatToLinalg(RewritePatternSet &patterns) {
  patterns.add<CatToGeneric>(patterns.getContext());
}

} // namespace kfuse::lowering
