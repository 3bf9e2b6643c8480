//===- ReshapePropagation.cpp - reshapes moved out of kernels' way --------===//
//
// A 3-D Linear is a 2-D matmul between two reshapes (`x.view(B*T, D) @ W`,
// then `.view(B, T, N)`), and the GELU after it reads the matmul through
// the expanding reshape: a kernel boundary, as a reshape changes the
// iteration space. An op that reads through `tensor.expand_shape`, or whose
// result `tensor.collapse_shape` reads, can iterate over the collapsed dims
// instead: the reshape moves to the other side of the op, and two reshapes
// that meet undo each other (their canonicalization), until the reshapes
// left are views of function arguments and results and of matmul operands.
//
// The mechanism is upstream Linalg's (collapseOpIterationDims). Its
// patterns (populateFoldReshapeOpsByCollapsingPatterns) collapse every
// contiguous run of dims an op allows, not only the reshape's: the GELU
// after a [32, 384] matmul became a 1-D op over 12288 elements, no longer
// over the matmul's space, and stayed out of its kernel. These patterns
// collapse exactly the dims the reshape groups, and give the new op the
// old one's kf attributes (`kf.op`, `kf.view`), which the report and the
// mappings read.
//
// The other way, an elementwise op whose reshaped result a reduction reads
// over part of a group of dims iterates over the expanded dims (upstream's
// expansion patterns with our control function, expandWriter). The
// collapsing half is CollapseReshapes.cpp.
//
//===----------------------------------------------------------------------===//
#include "passes/reshapes/ReshapePropagation.h"
#include "passes/Passes.h"
#include "passes/reshapes/ReshapeRules.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Remarks.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kfuse {
#define GEN_PASS_DEF_KFPROPAGATERESHAPES
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace kfuse::fusion {
namespace {

/// Whether the elementwise op writing `value`, read only through `expand`,
/// should iterate over the expanded dims instead: when a reduction reads
/// the expanded value over loops that cannot be collapsed (`(x + y)
/// .view(8, 4, 16).sum(1)` reduces one dim of a group of two), the
/// elementwise op can join it only in its space.
bool expandWriter(Value value, tensor::ExpandShapeOp expand) {
  auto op = value.getDefiningOp<linalg::GenericOp>();
  if (!op || !value.hasOneUse() || !canCollapse(op) ||
      op.getNumReductionLoops() != 0)
    return false;
  // Its inputs are read through expands in turn: it must read arguments
  // (views), not other ops' results, which would then be read through a
  // reshape (a mean's finishing division), or run over a third shape next
  // to the two (`(x + y)` read by an exp over [8, 4] and by a mul over
  // [4, 8]: the planner put the three in one row kernel that no mapping
  // serves, and every op became a kernel of its own).
  for (Value input : op.getDpsInputs()) {
    Value source = input;
    while (auto reshape = source.getDefiningOp<tensor::CollapseShapeOp>())
      source = reshape.getSrc();
    while (auto reshape = source.getDefiningOp<tensor::ExpandShapeOp>())
      source = reshape.getSrc();
    if (source.getDefiningOp<linalg::LinalgOp>())
      return false;
  }
  for (OpOperand &use : expand->getUses()) {
    auto reader = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (reader && canCollapse(reader) && reader.getNumReductionLoops() != 0 &&
        loopGroups(reader, reader.getMatchingIndexingMap(&use),
                   expand.getReassociationIndices())
            .empty())
      return true;
  }
  return false;
}

/// Counts the elementwise ops upstream's expansion patterns replace, gives
/// the new op the old one's attributes (upstream builds a new generic and
/// replaces the old one's results with collapses of its results), and says
/// so in a remark.
struct KeepAttributes : RewriterBase::Listener {
  explicit KeepAttributes(Progress &progress) : progress(progress) {}
  Progress &progress;
  void notifyOperationReplaced(Operation *op, ValueRange values) override {
    auto old = dyn_cast<linalg::GenericOp>(op);
    if (!old)
      return;
    for (Value value : values) {
      auto reshape = value.getDefiningOp<tensor::CollapseShapeOp>();
      auto expanded = reshape
                          ? reshape.getSrc().getDefiningOp<linalg::GenericOp>()
                          : nullptr;
      if (!expanded || expanded == old)
        continue;
      expanded->setDiscardableAttrs(old->getDiscardableAttrDictionary());
      auto name = old->getAttrOfType<StringAttr>("kf.op");
      auto func = old->getParentOfType<func::FuncOp>();
      if (progress.remarks)
        remark::passed(old.getLoc(),
                       remark::RemarkOpts::name("reshape-propagation")
                           .category("kf-form-kernels")
                           .subCategory("passed")
                           .function(func.getName()))
            << remark::add("{0} runs over {1} loops instead of {2}: a reshape "
                           "moved before it, for a reduction that reads it",
                           name ? name.getValue()
                                : old->getName().getStringRef(),
                           expanded.getNumLoops(), old.getNumLoops());
      ++progress.ops;
      return;
    }
  }
};

} // namespace

/// The canonical forms of reshapes: a fill or an empty tensor reshaped is
/// one of the new shape (a reshaped fill is a kernel of its own), and
/// reshapes that meet compose or undo each other.
static void addReshapeFolds(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  linalg::FillOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::populateFoldTensorEmptyPatterns(patterns);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
}

FailureOr<unsigned> propagateReshapes(func::FuncOp func, bool remarks) {
  MLIRContext *ctx = func.getContext();
  // First the reshapes composed: kf.reshape is a collapse to one dim and an
  // expand (kf-to-linalg), and [32, 384] -> [12288] -> [2, 16, 384] is the
  // expand [[0, 1], [2]]. Collapsing an op by the first half would flatten
  // it whole.
  RewritePatternSet folds(ctx);
  addReshapeFolds(folds);
  if (failed(applyPatternsGreedily(func, std::move(folds))))
    return failure();
  RewritePatternSet patterns(ctx);
  Progress progress;
  progress.remarks = remarks;
  populateCollapseReshapePatterns(patterns, progress);
  addReshapeFolds(patterns);
  if (failed(applyPatternsGreedily(func, std::move(patterns))))
    return failure();
  // Then the other way, for reductions over part of a group of dims:
  // upstream's expansion of an elementwise producer, where expandWriter
  // says (its control function sees the expand's source operand).
  RewritePatternSet expansions(ctx);
  linalg::populateFoldReshapeOpsByExpansionPatterns(
      expansions, [](OpOperand *operand) {
        auto expand = dyn_cast<tensor::ExpandShapeOp>(operand->getOwner());
        return expand && expandWriter(operand->get(), expand);
      });
  addReshapeFolds(expansions);
  KeepAttributes keep(progress);
  GreedyRewriteConfig config;
  config.setListener(&keep);
  if (failed(applyPatternsGreedily(func, std::move(expansions), config)))
    return failure();
  return progress.ops;
}

} // namespace kfuse::fusion

namespace {
struct KfPropagateReshapesPass
    : kfuse::impl::KfPropagateReshapesBase<KfPropagateReshapesPass> {
  void runOnOperation() override {
    if (failed(kfuse::fusion::propagateReshapes(getOperation()))) {
      getOperation().emitError(
          "kf-propagate-reshapes: the rewrites did not settle");
      signalPassFailure();
    }
  }
};
} // namespace
