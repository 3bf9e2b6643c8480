//===- KfGatherOps.cpp - kf.index_select and kf.gather: type rules --------===//
//
// The shapes torch.index_select (with numpy take's index of any rank, which
// F.embedding is) and torch.gather give, and what kfuse refuses of them.
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfOps.h"
#include "dialect/Kf/KfTypeRules.h"

using namespace mlir;
using namespace kfuse::kf;

namespace {

/// The dim along which `op` reads at the loaded index, made non-negative,
/// once it is checked to be a dim of `input` that is static (a table).
FailureOr<int64_t> gatheredDim(std::optional<Location> loc, StringRef op,
                               RankedTensorType input, int64_t dim) {
  int64_t rank = input.getRank();
  if (rank == 0)
    return emitOptionalError(loc, "'", op, "' needs an input of rank 1 or more "
                             "(a 0-d tensor has no dim to index)");
  if (failed(verifyDims(loc, op, rank, {dim})))
    return failure();
  if (dim < 0)
    dim += rank;
  if (input.isDynamicDim(dim))
    return emitOptionalError(loc, "'", op, "' input ", shapeToString(input.getShape()),
                             " is dynamic along the indexed dim ", dim,
                             ": not supported (the index's range must be static)");
  return dim;
}

} // namespace

LogicalResult IndexSelectOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  auto input = cast<RankedTensorType>(adaptor.getInput().getType());
  auto index = cast<RankedTensorType>(adaptor.getIndex().getType());
  FailureOr<int64_t> dim = gatheredDim(loc, "kf.index_select", input, adaptor.getDim());
  if (failed(dim))
    return failure();
  SmallVector<int64_t> shape(input.getShape().take_front(*dim));
  llvm::append_range(shape, index.getShape());
  llvm::append_range(shape, input.getShape().drop_front(*dim + 1));
  types.push_back(input.clone(shape));
  return success();
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto input = cast<RankedTensorType>(adaptor.getInput().getType());
  auto index = cast<RankedTensorType>(adaptor.getIndex().getType());
  FailureOr<int64_t> dim = gatheredDim(loc, "kf.gather", input, adaptor.getDim());
  if (failed(dim))
    return failure();
  if (index.getRank() != input.getRank())
    return emitOptionalError(loc, "'kf.gather' index ", shapeToString(index.getShape()),
                             " must have the input's rank ", input.getRank(), " (",
                             shapeToString(input.getShape()), ")");
  for (int64_t d = 0; d < input.getRank(); ++d) {
    int64_t i = index.getDimSize(d), n = input.getDimSize(d);
    if (d != *dim && !ShapedType::isDynamic(i) && !ShapedType::isDynamic(n) && i > n)
      return emitOptionalError(loc, "'kf.gather' index ", shapeToString(index.getShape()),
                               " is larger than the input ", shapeToString(input.getShape()),
                               " in dim ", d, " (only the indexed dim ", *dim, " may be)");
  }
  types.push_back(input.clone(index.getShape()));
  return success();
}
