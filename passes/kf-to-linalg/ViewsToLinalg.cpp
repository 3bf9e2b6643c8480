//===- ViewsToLinalg.cpp - views read in place, materialized where needed -===//
//
// kf.transpose and kf.slice are views, as in PyTorch: no kernel. Each is
// lowered to the copy it would be (a linalg.generic marked `kf.view` whose
// input map is the view's: permuted dims, or `start + i * step`), and then
// folded into every linalg.generic that reads it, with upstream's
// elementwise fusion (the copy's map composes into the reader's). A view
// that no generic can read in place (returned, read by a matmul) stays: a
// copy kernel, as `.contiguous()` is. kf.contiguous is such a copy on
// purpose: it is never folded (kernel formation treats it as a barrier).
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfOps.h"
#include "passes/kf-to-linalg/Lowering.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace kfuse::kf;

namespace kfuse::lowering {
namespace {

/// The copy of `input` to `type` whose read of element `i` is `inputMap(i)`.
Value buildCopy(OpBuilder &b, Location loc, Value input, RankedTensorType type,
                AffineMap inputMap, ValueRange dynamicSizes) {
  Value init = emptyTensor(b, loc, type, dynamicSizes);
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps = {inputMap, b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  auto copy = linalg::GenericOp::create(
      b, loc, type, input, init, maps, iterators,
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, args[0]);
      });
  return copy.getResult(0);
}

struct TransposeToView : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<int64_t> perm = op.getNormalizedPermutation();
    // Result dim i is input dim perm[i]: input dim perm[i] is read at loop i.
    SmallVector<AffineExpr> reads(perm.size());
    SmallVector<Value> sizes;
    for (auto [i, p] : llvm::enumerate(perm)) {
      reads[p] = rewriter.getAffineDimExpr(i);
      if (op.getType().isDynamicDim(i))
        sizes.push_back(dimValue(rewriter, loc, adaptor.getInput(), p));
    }
    auto map = AffineMap::get(perm.size(), 0, reads, rewriter.getContext());
    Value copy = buildCopy(rewriter, loc, adaptor.getInput(), op.getType(), map,
                           sizes);
    tagKernel(copy.getDefiningOp(), op);
    setView(copy.getDefiningOp());
    rewriter.replaceOp(op, copy);
    return success();
  }
};

/// `input[0 .. sizes]` as a tensor.extract_slice (a view of the memory).
Value truncate(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> sizes) {
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<OpFoldResult> offsets, lengths, strides;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    offsets.push_back(b.getIndexAttr(0));
    strides.push_back(b.getIndexAttr(1));
    lengths.push_back(type.isDynamicDim(i) ? OpFoldResult(dimValue(b, loc, input, i))
                                           : OpFoldResult(b.getIndexAttr(sizes[i])));
  }
  return tensor::ExtractSliceOp::create(b, loc, input, offsets, lengths, strides);
}

/// Where `input` is a transpose's view, `input[0 .. sizes]` as the
/// transpose of its input's matching part: an extract_slice of the view's
/// result would hide the view from the readers it folds into (a
/// `qkv.permute(2, 0, 3, 1, 4).unbind(0)`'s first slice left a copy of the
/// whole permuted tensor, where the other two read the projection in
/// place), and no linalg map can truncate a dim that a loop reads alone.
std::optional<Value> truncateTransposed(OpBuilder &b, Location loc, Value input,
                                        ArrayRef<int64_t> sizes) {
  auto view = input.getDefiningOp<linalg::GenericOp>();
  if (!view || !isView(view) || view.getNumDpsInputs() != 1)
    return std::nullopt;
  AffineMap read = view.getIndexingMapsArray()[0];
  auto type = cast<RankedTensorType>(input.getType());
  if (!read.isPermutation() || type.getNumDynamicDims())
    return std::nullopt;
  // View dim i reads input dim p where the map's result p is d_i.
  SmallVector<int64_t> inSizes(type.getRank());
  for (auto [p, e] : llvm::enumerate(read.getResults()))
    inSizes[p] = sizes[cast<AffineDimExpr>(e).getPosition()];
  Value part = truncate(b, loc, view.getDpsInputs()[0], inSizes);
  Value copy = buildCopy(b, loc, part, type.clone(sizes), read, {});
  for (NamedAttribute attr : view->getDiscardableAttrs())
    copy.getDefiningOp()->setDiscardableAttr(attr.getName(), attr.getValue());
  return copy;
}

struct SliceToView : OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    // An empty slice reads nothing (and a map over an empty loop would
    // index before the start).
    if (type.hasStaticShape() && type.getNumElements() == 0) {
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, type.getShape(),
                                                   type.getElementType());
      return success();
    }
    // A dim read from 0 by 1 but not to its end (`x[:3]`): linalg requires
    // a dim indexed by a loop alone to be as long as the loop, so that part
    // is a tensor.extract_slice (a view of the memory, no kernel) and the
    // copy reads its result.
    Value input = adaptor.getInput();
    auto inType = cast<RankedTensorType>(input.getType());
    SmallVector<int64_t> starts = op.getNormalizedStarts();
    ArrayRef<int64_t> steps = op.getSteps();
    SmallVector<int64_t> truncated(inType.getShape());
    bool truncates = false;
    for (int64_t i = 0; i < inType.getRank(); ++i)
      if (starts[i] == 0 && steps[i] == 1 && !inType.isDynamicDim(i) &&
          type.getDimSize(i) < inType.getDimSize(i)) {
        truncated[i] = type.getDimSize(i);
        truncates = true;
      }
    if (truncates) {
      std::optional<Value> transposed = truncateTransposed(rewriter, loc, input, truncated);
      input = transposed ? *transposed : truncate(rewriter, loc, input, truncated);
    }
    SmallVector<AffineExpr> reads;
    SmallVector<Value> sizes;
    for (auto [i, step] : llvm::enumerate(steps)) {
      reads.push_back(rewriter.getAffineDimExpr(i) * step + starts[i]);
      if (type.isDynamicDim(i)) // kept whole (the verifier says so)
        sizes.push_back(dimValue(rewriter, loc, input, i));
    }
    auto map = AffineMap::get(reads.size(), 0, reads, rewriter.getContext());
    Value copy = buildCopy(rewriter, loc, input, type, map, sizes);
    tagKernel(copy.getDefiningOp(), op);
    setView(copy.getDefiningOp());
    rewriter.replaceOp(op, copy);
    return success();
  }
};

struct ContiguousToCopy : OpConversionPattern<ContiguousOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ContiguousOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    SmallVector<Value> sizes;
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (type.isDynamicDim(i))
        sizes.push_back(dimValue(rewriter, loc, adaptor.getInput(), i));
    Value copy = buildCopy(rewriter, loc, adaptor.getInput(), type,
                           rewriter.getMultiDimIdentityMap(type.getRank()), sizes);
    tagKernel(copy.getDefiningOp(), op);
    rewriter.replaceOp(op, copy);
    return success();
  }
};

/// Whether `reader` can read a view in place: a linalg.generic, except a
/// batched matmul (whose operands the matmul lowering reads).
bool readsViewsInPlace(Operation *reader) {
  return isa<linalg::GenericOp>(reader) && getEagerOpName(reader) != "matmul";
}

} // namespace

void populateViewsToLinalg(RewritePatternSet &patterns) {
  patterns.add<TransposeToView, SliceToView, ContiguousToCopy>(
      patterns.getContext());
}

namespace {
/// The readers still to visit; an op erased by a fold (a view folded into
/// its last reader, a reader replaced by the fused op) leaves the list.
struct Worklist : RewriterBase::Listener {
  llvm::SetVector<Operation *> ops;
  void notifyOperationErased(Operation *op) override { ops.remove(op); }
};
} // namespace

LogicalResult foldViewsIntoReaders(Operation *root) {
  Worklist work;
  IRRewriter rewriter(root->getContext(), &work);
  root->walk([&](linalg::GenericOp op) {
    if (readsViewsInPlace(op))
      work.ops.insert(op);
  });
  while (!work.ops.empty()) {
    Operation *reader = work.ops.pop_back_val();
    for (OpOperand *operand : cast<linalg::GenericOp>(reader).getDpsInputOperands()) {
      auto view = operand->get().getDefiningOp<linalg::GenericOp>();
      if (!view || !isView(view))
        continue;
      // A view read elsewhere too is copied for this reader: folding the
      // shared one would make the reader also write the view's copy.
      if (!view->hasOneUse()) {
        rewriter.setInsertionPoint(view);
        auto own = cast<linalg::GenericOp>(rewriter.clone(*view));
        operand->set(own.getResult(0));
        view = own;
      }
      if (!linalg::areElementwiseOpsFusable(operand))
        continue;
      rewriter.setInsertionPoint(reader);
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, operand);
      if (failed(fused))
        return reader->emitError("kf-to-linalg: cannot read a view in place");
      Operation *op = fused->fusedOp;
      // The reader's kf attributes (its eager op, kf.finishes, kf.view).
      for (NamedAttribute attr : reader->getDiscardableAttrs())
        op->setDiscardableAttr(attr.getName(), attr.getValue());
      for (auto [from, to] : fused->replacements)
        rewriter.replaceAllUsesWith(from, to);
      rewriter.eraseOp(reader);
      if (view->use_empty()) {
        Operation *init = view.getDpsInits()[0].getDefiningOp();
        rewriter.eraseOp(view);
        if (init && init->use_empty() && isa<tensor::EmptyOp>(init))
          rewriter.eraseOp(init);
      }
      work.ops.insert(op); // its operands are new: visit it again
      break;
    }
  }
  return success();
}

} // namespace kfuse::lowering
