//===- CollapseReshapes.cpp - ops collapsed so reshapes move -------------===//
//
// The collapsing half of kf-propagate-reshapes (ReshapePropagation.cpp
// says why): an op read through an expanding reshape, or read through a
// collapsing one, iterates over the collapsed dims together with every op
// next to it that must follow, by upstream Linalg's collapseOpIterationDims.
//
//===----------------------------------------------------------------------===//
#include "passes/reshapes/ReshapeRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Remarks.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;

namespace kfuse::fusion {

// ReshapeRules.h says what these two check.
bool canCollapse(linalg::GenericOp op) {
  // A batched matmul is a generic too; its kernel is the matmul mapping's,
  // over the matmul's own loops.
  auto name = op->getAttrOfType<StringAttr>("kf.op");
  if ((name && name.getValue() == "matmul") ||
      linalg::isaContractionOpInterface(op))
    return false;
  if (!llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return false;
  bool indexes = false;
  op.getBody()->walk([&](Operation *inner) {
    if (isa<linalg::IndexOp, tensor::ExtractOp>(inner))
      indexes = true;
  });
  return !indexes;
}

SmallVector<ReassociationIndices>
loopGroups(linalg::GenericOp op, AffineMap map,
           ArrayRef<ReassociationIndices> reassociation) {
  SmallVector<ReassociationIndices> groups;
  auto iterators = op.getIteratorTypesArray();
  for (const ReassociationIndices &dims : reassociation) {
    if (dims.size() < 2)
      continue;
    ReassociationIndices loops;
    for (int64_t dim : dims) {
      auto loop = dyn_cast<AffineDimExpr>(map.getResult(dim));
      if (!loop)
        return {};
      loops.push_back(loop.getPosition());
    }
    for (int64_t loop : loops)
      if (iterators[loop] != iterators[loops.front()])
        return {};
    groups.push_back(loops);
  }
  if (groups.empty() ||
      !linalg::areDimSequencesPreserved(op.getIndexingMapsArray(), groups))
    return {};
  // A loop whose size one operand knows and another reads at run time
  // (`tensor<?x1xi64> * tensor<4x1xf64>`, checked equal by an assert):
  // upstream sizes the expanded result from the dynamic one, a
  // tensor<4x1xf64> with a dynamic output_shape that bufferization refuses.
  for (const ReassociationIndices &loops : groups)
    for (int64_t loop : loops) {
      bool isStatic = false, isDynamic = false;
      for (OpOperand &operand : op->getOpOperands()) {
        auto type = dyn_cast<RankedTensorType>(operand.get().getType());
        auto pos = op.getMatchingIndexingMap(&operand).getResultPosition(
            getAffineDimExpr(loop, op.getContext()));
        if (!type || !pos)
          continue;
        (type.isDynamicDim(*pos) ? isDynamic : isStatic) = true;
      }
      if (isStatic && isDynamic)
        return {};
    }
  return groups;
}

namespace {

/// The groups of dims of an operand read or written through `map` that
/// the loop `groups` become (loops the operand lacks, as a reduction's
/// result lacks its reduced loops, left out).
SmallVector<ReassociationIndices>
operandGroups(AffineMap map, ArrayRef<ReassociationIndices> groups) {
  SmallVector<ReassociationIndices> dims;
  for (const ReassociationIndices &loops : groups) {
    ReassociationIndices group;
    for (int64_t loop : loops)
      if (auto pos =
              map.getResultPosition(getAffineDimExpr(loop, map.getContext())))
        group.push_back(*pos);
    if (group.size() > 1)
      dims.push_back(group);
  }
  return dims;
}

/// The ops to collapse together, each with its loop groups: `seed` and,
/// transitively, every generic next to one of them (the producer of an
/// input, another reader of an input, a reader of a result) over the dims
/// the groups reach. Collapsing a component moves the reshape out of every
/// kernel's way; collapsing one op alone would only move it between that op
/// and a neighbour that keeps its shape (`x.view(B, H, D).pow(2).mean(-1)`:
/// the mean reduces D alone, so the pow must stay 3-D with it; a std's
/// mean collapsed without the subtraction next to it made a row kernel of
/// two shapes that no mapping serves, and every op became a kernel alone).
/// The component ends at what takes a reshape as a view: arguments,
/// results, other reshapes, fills and constants, matmul operands (and size
/// queries, tensor.dim). None if a neighbour cannot be collapsed by the
/// dims that reach it, or is reached twice with different groups.
using Component =
    llvm::MapVector<Operation *, SmallVector<ReassociationIndices>>;

std::optional<Component> componentOf(linalg::GenericOp seed,
                                     ArrayRef<ReassociationIndices> groups) {
  Component members;
  SmallVector<linalg::GenericOp> work;
  // Adds `op` collapsed by `dims` of the operand read or written through
  // `map`; false if it cannot be.
  auto join = [&](linalg::GenericOp op, AffineMap map,
                  ArrayRef<ReassociationIndices> dims) {
    if (!canCollapse(op))
      return false;
    auto loops = loopGroups(op, map, dims);
    if (loops.empty())
      return false;
    auto [it, inserted] = members.try_emplace(op, loops);
    if (inserted)
      work.push_back(op);
    return it->second == loops;
  };
  // Whether each reader of `value` but `op` follows `dims` (or reads it
  // as a view).
  auto readersJoin = [&](Value value, Operation *op,
                         ArrayRef<ReassociationIndices> dims) {
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (user == op || isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                            tensor::DimOp, func::ReturnOp>(user))
        continue;
      auto generic = dyn_cast<linalg::GenericOp>(user);
      if (!generic) {
        if (isa<linalg::LinalgOp>(user))
          continue; // a matmul reads its operands from memory
        return false;
      }
      if (!join(generic, generic.getMatchingIndexingMap(&use), dims))
        return false;
    }
    return true;
  };
  members.try_emplace(seed, SmallVector<ReassociationIndices>(groups));
  work.push_back(seed);
  while (!work.empty()) {
    linalg::GenericOp op = work.pop_back_val();
    SmallVector<ReassociationIndices> loops = members.lookup(op);
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto dims = operandGroups(op.getMatchingIndexingMap(input), loops);
      if (dims.empty())
        continue;
      if (!readersJoin(input->get(), op, dims))
        return std::nullopt;
      auto result = dyn_cast<OpResult>(input->get());
      if (!result)
        continue; // an argument
      Operation *producer = result.getOwner();
      if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::EmptyOp,
              linalg::FillOp, arith::ConstantOp>(producer))
        continue;
      auto generic = dyn_cast<linalg::GenericOp>(producer);
      if (!generic ||
          !join(generic, generic.getIndexingMapMatchingResult(result), dims))
        return std::nullopt;
    }
    for (OpResult result : op->getResults()) {
      auto dims = operandGroups(op.getIndexingMapMatchingResult(result), loops);
      if (!dims.empty() && !readersJoin(result, op, dims))
        return std::nullopt;
    }
  }
  return members;
}

/// Replaces `op` by its copy over the collapsed `groups` of loops, the new
/// op keeping the old one's discardable attributes, and says so in a remark.
bool collapseOne(linalg::GenericOp op, ArrayRef<ReassociationIndices> groups,
                 PatternRewriter &rewriter, bool remarks) {
  // At the op, not at the reshape that matched: its other readers may lie
  // between them.
  rewriter.setInsertionPoint(op);
  auto collapsed = linalg::collapseOpIterationDims(op, groups, rewriter);
  // componentOf checked what collapseOpIterationDims needs; were it to fail,
  // the op keeps its loops and reads its neighbours through reshapes (valid,
  // as before).
  if (failed(collapsed))
    return false;
  collapsed->collapsedOp->setDiscardableAttrs(
      op->getDiscardableAttrDictionary());
  auto name = op->getAttrOfType<StringAttr>("kf.op");
  auto func = op->getParentOfType<func::FuncOp>();
  if (remarks)
    remark::passed(op.getLoc(), remark::RemarkOpts::name("reshape-propagation")
                                    .category("kf-form-kernels")
                                    .subCategory("passed")
                                    .function(func.getName()))
        << remark::add("{0} runs over {1} loops instead of {2}: a reshape "
                       "moved past it",
                       name ? name.getValue() : op->getName().getStringRef(),
                       collapsed->collapsedOp.getNumLoops(), op.getNumLoops());
  rewriter.replaceOp(op, collapsed->results);
  return true;
}

/// Collapses `op`'s component (componentOf), or nothing.
LogicalResult collapse(linalg::GenericOp op,
                       ArrayRef<ReassociationIndices> groups,
                       PatternRewriter &rewriter, Progress &progress) {
  std::optional<Component> members = componentOf(op, groups);
  if (!members)
    return failure();
  unsigned done = 0;
  for (auto &[member, loops] : *members)
    done += collapseOne(cast<linalg::GenericOp>(member), loops, rewriter,
                        progress.remarks);
  progress.ops += done;
  return success(done != 0);
}

/// A pattern that counts what it collapses into a run's Progress.
template <typename OpTy> struct CountingPattern : OpRewritePattern<OpTy> {
  CountingPattern(MLIRContext *ctx, Progress &progress)
      : OpRewritePattern<OpTy>(ctx), progress(progress) {}
  Progress &progress;
};

/// `op(expand_shape(x))` -> `expand_shape(op'(x))`.
struct CollapseReaderOfExpand : CountingPattern<linalg::GenericOp> {
  using CountingPattern::CountingPattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || !canCollapse(op))
      return failure();
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto expand = input->get().getDefiningOp<tensor::ExpandShapeOp>();
      if (!expand)
        continue;
      auto groups = loopGroups(op, op.getMatchingIndexingMap(input),
                               expand.getReassociationIndices());
      if (!groups.empty() &&
          succeeded(collapse(op, groups, rewriter, progress)))
        return success();
    }
    return failure();
  }
};

/// `collapse_shape(op(x))` -> `op'(collapse_shape(x))`.
struct CollapseWriterOfCollapse : CountingPattern<tensor::CollapseShapeOp> {
  using CountingPattern::CountingPattern;
  LogicalResult matchAndRewrite(tensor::CollapseShapeOp reshape,
                                PatternRewriter &rewriter) const override {
    auto result = dyn_cast<OpResult>(reshape.getSrc());
    auto op = result ? dyn_cast<linalg::GenericOp>(result.getOwner()) : nullptr;
    if (!op || !op.hasPureTensorSemantics() || !canCollapse(op))
      return failure();
    auto groups = loopGroups(op, op.getIndexingMapMatchingResult(result),
                             reshape.getReassociationIndices());
    if (groups.empty())
      return failure();
    return collapse(op, groups, rewriter, progress);
  }
};

} // namespace

void populateCollapseReshapePatterns(RewritePatternSet &patterns,
                                     Progress &progress) {
  patterns.add<CollapseReaderOfExpand, CollapseWriterOfCollapse>(
      patterns.getContext(), progress);
}

} // namespace kfuse::fusion
