//===- GatherToLinalg.cpp - kf.index_select and kf.gather as linalg --------===//
//
// A gather is one eager kernel: a linalg.generic over the result, all loops
// parallel, that reads the index tensor through its indexing map and the
// input at the loaded index with a tensor.extract in the body (as
// torch-mlir lowers aten.embedding). The input is captured, not an operand:
// no affine map says which element a data-dependent index reads. Kernel
// formation knows such captured reads (KernelGraph's gathered edges), the
// report counts them as the elements read, and the mappings clone the load
// as any body op (on buffers, a memref.load of the captured buffer).
//
// An index outside [0, n) reads row 0 and yields NaN instead: PyTorch
// raises an error there, and a kernel cannot; NaN reaches the result
// through every op that reads it, where a clamped row would be a silent
// wrong value.
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfOps.h"
#include "passes/kf-to-linalg/Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace kfuse::kf;

namespace kfuse::lowering {
namespace {

/// Where the body reads the input: along the gathered dim at the loaded
/// index, along every other dim at a loop (`loopOf[d]`).
struct GatherPlan {
  int64_t dim;
  SmallVector<int64_t> loopOf; // per input dim; ignored at `dim`
  AffineMap indexMap;          // the index tensor's indexing map
};

/// The linalg.generic of a gather over `resultType`, whose dynamic sizes
/// are `sizes`: reads `index` through `plan.indexMap` and `input` (captured)
/// at the index it loads.
Value buildGather(OpBuilder &b, Location loc, Operation *kfOp, Value input, Value index,
                  RankedTensorType resultType, ValueRange sizes, const GatherPlan &plan) {
  auto inputType = cast<RankedTensorType>(input.getType());
  auto elt = cast<FloatType>(resultType.getElementType());
  int64_t rank = resultType.getRank(), n = inputType.getDimSize(plan.dim);
  Value init = emptyTensor(b, loc, resultType, sizes);
  SmallVector<AffineMap> maps = {plan.indexMap, b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, index, init, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value nan = arith::ConstantOp::create(
            nb, l, nb.getFloatAttr(elt, APFloat::getQNaN(elt.getFloatSemantics())));
        if (n == 0) { // every index is out of range: nothing to read
          linalg::YieldOp::create(nb, l, nan);
          return;
        }
        Value i = args[0];
        Type it = i.getType();
        Value zero = arith::ConstantOp::create(nb, l, nb.getIntegerAttr(it, 0));
        Value size = arith::ConstantOp::create(nb, l, nb.getIntegerAttr(it, n));
        Value inRange = arith::AndIOp::create(
            nb, l, arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge, i, zero),
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, i, size));
        Value safe = arith::IndexCastOp::create(
            nb, l, nb.getIndexType(), arith::SelectOp::create(nb, l, inRange, i, zero));
        SmallVector<Value> at;
        for (int64_t d = 0; d < inputType.getRank(); ++d)
          at.push_back(d == plan.dim ? safe
                                     : linalg::IndexOp::create(nb, l, plan.loopOf[d]).getResult());
        Value v = tensor::ExtractOp::create(nb, l, input, at);
        linalg::YieldOp::create(nb, l, arith::SelectOp::create(nb, l, inRange, v, nan).getResult());
      });
  tagKernel(generic, kfOp);
  return generic.getResult(0);
}

/// index_select: result dims input[:dim], index, input[dim + 1:]; `sizes`
/// gets the result's dynamic sizes.
GatherPlan planOf(IndexSelectOp, OpBuilder &b, Location loc, Value input, Value index,
                  int64_t dim, RankedTensorType resultType, SmallVectorImpl<Value> &sizes) {
  int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
  int64_t indexRank = cast<RankedTensorType>(index.getType()).getRank();
  GatherPlan plan{dim, {}, {}};
  for (int64_t d = 0; d < rank; ++d)
    plan.loopOf.push_back(d < dim ? d : d + indexRank - 1);
  SmallVector<AffineExpr> indexDims;
  for (int64_t k = 0; k < indexRank; ++k)
    indexDims.push_back(b.getAffineDimExpr(dim + k));
  plan.indexMap = AffineMap::get(resultType.getRank(), 0, indexDims, b.getContext());
  for (int64_t r = 0; r < resultType.getRank(); ++r) {
    if (!resultType.isDynamicDim(r))
      continue;
    bool fromIndex = r >= dim && r < dim + indexRank;
    sizes.push_back(fromIndex ? dimValue(b, loc, index, r - dim)
                              : dimValue(b, loc, input, r < dim ? r : r - indexRank + 1));
  }
  return plan;
}

/// gather: the index's space. Each other dim of the index must fit in the
/// input's; a dynamic one is checked when it runs (the static ones were
/// checked by the verifier).
GatherPlan planOf(GatherOp, OpBuilder &b, Location loc, Value input, Value index, int64_t dim,
                  RankedTensorType, SmallVectorImpl<Value> &sizes) {
  auto inputType = cast<RankedTensorType>(input.getType());
  auto indexType = cast<RankedTensorType>(index.getType());
  int64_t rank = inputType.getRank();
  for (int64_t d = 0; d < rank; ++d) {
    if (indexType.isDynamicDim(d))
      sizes.push_back(dimValue(b, loc, index, d));
    if (d == dim || (!indexType.isDynamicDim(d) && !inputType.isDynamicDim(d)))
      continue;
    Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                       dimValue(b, loc, index, d), dimValue(b, loc, input, d));
    cf::AssertOp::create(b, loc, fits,
                         "kf.gather: the index is larger than the input in a dim "
                         "other than the indexed one");
  }
  GatherPlan plan{dim, {}, b.getMultiDimIdentityMap(rank)};
  for (int64_t d = 0; d < rank; ++d)
    plan.loopOf.push_back(d);
  return plan;
}

/// kf.index_select and kf.gather differ only in their plan (planOf).
template <typename OpTy>
struct GatherToGeneric : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), index = adaptor.getIndex();
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
    int64_t dim = static_cast<int64_t>(op.getDim()); // the getter is unsigned
    if (dim < 0)
      dim += rank;
    SmallVector<Value> sizes;
    GatherPlan plan = planOf(op, rewriter, loc, input, index, dim, resultType, sizes);
    rewriter.replaceOp(op, buildGather(rewriter, loc, op, input, index, resultType, sizes, plan));
    return success();
  }
};

} // namespace

void populateGatherToLinalg(RewritePatternSet &patterns) {
  patterns.add<GatherToGeneric<IndexSelectOp>, GatherToGeneric<GatherOp>>(
      patterns.getContext());
}

} // namespace kfuse::lowering
