//===- KfViewOps.cpp - kf.slice: type inference and folding ---------------===//
//
// The rules of Python's basic slicing, as torch applies them to a tensor:
// negative bounds count from the end, bounds are clamped to the dim, the
// step is positive.
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfOps.h"
#include "dialect/Kf/KfTypeRules.h"

#include <limits>

using namespace mlir;
using namespace kfuse::kf;

namespace {

/// PyTorch's "to the end" (`x[1:]` slices to sys.maxsize).
constexpr int64_t kToTheEnd = std::numeric_limits<int64_t>::max();

/// A bound counted from the end when negative, clamped to [0, size].
int64_t clampBound(int64_t bound, int64_t size) {
  if (bound < 0)
    bound = bound < -size ? 0 : bound + size;
  return std::min(bound, size);
}

/// The size of dim [start, end) with `step`, start and end clamped.
int64_t slicedSize(int64_t start, int64_t end, int64_t step, int64_t size) {
  int64_t s = clampBound(start, size), e = clampBound(end, size);
  return e <= s ? 0 : (e - s + step - 1) / step;
}

} // namespace

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  auto input = cast<RankedTensorType>(adaptor.getInput().getType());
  ArrayRef<int64_t> starts = adaptor.getStarts(), ends = adaptor.getEnds(),
                    steps = adaptor.getSteps();
  int64_t rank = input.getRank();
  if ((int64_t)starts.size() != rank || (int64_t)ends.size() != rank ||
      (int64_t)steps.size() != rank)
    return emitOptionalError(loc, "'kf.slice' needs a start, an end and a "
                             "step for each of the ", rank, " dims of ",
                             shapeToString(input.getShape()));
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    if (steps[i] < 1)
      return emitOptionalError(loc, "'kf.slice' step of dim ", i,
                               " must be at least 1, got ", steps[i]);
    if (input.isDynamicDim(i)) {
      // The size is only known when it runs: kept whole or refused.
      if (starts[i] != 0 || steps[i] != 1 || ends[i] != kToTheEnd)
        return emitOptionalError(
            loc, "'kf.slice' can only keep dynamic dim ", i,
            " whole (start 0, end 9223372036854775807, step 1)");
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    shape.push_back(
        slicedSize(starts[i], ends[i], steps[i], input.getDimSize(i)));
  }
  types.push_back(input.clone(shape));
  return success();
}

SmallVector<int64_t> SliceOp::getNormalizedStarts() {
  SmallVector<int64_t> out;
  auto type = getInput().getType();
  for (auto [i, start] : llvm::enumerate(getStarts()))
    out.push_back(type.isDynamicDim(i) ? 0
                                       : clampBound(start, type.getDimSize(i)));
  return out;
}

OpFoldResult SliceOp::fold(FoldAdaptor) {
  // A slice that keeps every element in order is its input.
  auto in = getInput().getType();
  SmallVector<int64_t> starts = getNormalizedStarts();
  for (auto [i, step] : llvm::enumerate(getSteps()))
    if (starts[i] != 0 || (step != 1 && in.getDimSize(i) > 1))
      return {};
  if (in != getType())
    return {};
  return getInput();
}
