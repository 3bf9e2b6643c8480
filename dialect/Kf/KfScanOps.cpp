//===- KfScanOps.cpp - kf.cumsum: type rules ------------------------------===//
//
// The shape and dtype torch.cumsum gives, and what kfuse refuses of it.
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfOps.h"
#include "dialect/Kf/KfTypeRules.h"

using namespace mlir;
using namespace kfuse::kf;

LogicalResult CumsumOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto input = cast<RankedTensorType>(adaptor.getInput().getType());
  if (input.getRank() == 0)
    return emitOptionalError(loc, "'kf.cumsum' needs an input of rank 1 or more "
                                  "(a 0-d tensor has no dim to scan)");
  if (failed(verifyElementCount(loc, "kf.cumsum", input.getShape())) ||
      failed(verifyDims(loc, "kf.cumsum", input.getRank(), {static_cast<int64_t>(adaptor.getDim())})))
    return failure();
  Type elt = input.getElementType();
  if (!isa<FloatType>(elt))
    elt = IntegerType::get(ctx, 64); // torch.cumsum of ints and bool is i64
  types.push_back(input.clone(elt));
  return success();
}
