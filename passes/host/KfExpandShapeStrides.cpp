//===- KfExpandShapeStrides.cpp - expand_shape as a reinterpret_cast -----===//
//
// Upstream's expand-strided-metadata (LLVM 22) computes an expand_shape's
// sizes and strides as if each reassociation group had at most one dynamic
// dim; with two (a ?x? result of a ? buffer: an elementwise kernel that
// reshape propagation ran flat, its 2-D result expanded back) it passes a
// null size on and crashes (llvm-project issue 186830, fixed for LLVM 23 by
// reading the op's output_shape). Until kfuse builds against that, this
// pass rewrites such an expand_shape as what it is: a reinterpret_cast of
// its source with the output shape as sizes and, inside each group, strides
// from the innermost dim out (the group's last dim keeps the source dim's
// stride, each dim before it that stride times the sizes after it).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace kfuse {
#define GEN_PASS_DEF_KFEXPANDSHAPESTRIDES
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

/// Whether a reassociation group of `op` holds more than one dynamic dim.
bool hasGroupWithDynamicDims(memref::ExpandShapeOp op) {
  MemRefType type = op.getResultType();
  return llvm::any_of(op.getReassociationIndices(), [&](ReassociationIndices group) {
    return llvm::count_if(group, [&](int64_t d) { return type.isDynamicDim(d); }) > 1;
  });
}

void rewrite(memref::ExpandShapeOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto source = memref::ExtractStridedMetadataOp::create(b, loc, op.getSrc());
  SmallVector<OpFoldResult> sizes = op.getMixedOutputShape();
  SmallVector<OpFoldResult> strides(sizes.size());
  SmallVector<ReassociationIndices> groups = op.getReassociationIndices();
  for (auto [dim, group] : llvm::enumerate(groups)) {
    Value stride = source.getStrides()[dim];
    for (auto [i, d] : llvm::enumerate(llvm::reverse(group))) {
      if (i > 0) // times the size of the dim after this one
        stride = arith::MulIOp::create(
            b, loc, stride, getValueOrCreateConstantIndexOp(b, loc, sizes[group[group.size() - i]]));
      strides[d] = stride;
    }
  }
  // Where the result type states a stride or the offset, the op must say
  // the same constant (reinterpret_cast's verifier).
  auto [typeStrides, typeOffset] = op.getResultType().getStridesAndOffset();
  for (auto [stride, fixed] : llvm::zip(strides, typeStrides))
    if (!ShapedType::isDynamic(fixed))
      stride = b.getIndexAttr(fixed);
  OpFoldResult offset = ShapedType::isDynamic(typeOffset)
                            ? OpFoldResult(source.getOffset())
                            : OpFoldResult(b.getIndexAttr(typeOffset));
  auto cast = memref::ReinterpretCastOp::create(b, loc, op.getResultType(), op.getSrc(), offset,
                                                sizes, strides);
  op.replaceAllUsesWith(cast.getResult());
  op.erase();
}

struct KfExpandShapeStridesPass
    : kfuse::impl::KfExpandShapeStridesBase<KfExpandShapeStridesPass> {
  void runOnOperation() override {
    SmallVector<memref::ExpandShapeOp> ops;
    getOperation()->walk([&](memref::ExpandShapeOp op) {
      if (hasGroupWithDynamicDims(op))
        ops.push_back(op);
    });
    for (memref::ExpandShapeOp op : ops)
      rewrite(op);
  }
};

} // namespace
