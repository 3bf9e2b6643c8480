//===- UnrollReduction.cpp - a small reduction as straight-line code ------===//
//
// Upstream has no rewrite of a linalg.generic's reduction loop into its
// body (linalg's unrolling tiles by 1 and unrolls scf loops, which leaves
// loops inside a kernel's ops and no generic an elementwise fusion could
// merge), so this is kfuse's own: a few lines of map arithmetic.
//
//===----------------------------------------------------------------------===//
#include "passes/utils/UnrollReduction.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;

FailureOr<linalg::GenericOp> kfuse::unrollReductionLoops(RewriterBase &rewriter,
                                                         linalg::GenericOp op,
                                                         int64_t maxElements) {
  if (op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
      op.getNumReductionLoops() == 0 || !op.hasPureTensorSemantics())
    return failure();
  Block &body = op.getRegion().front();
  if (!body.getOps<linalg::IndexOp>().empty())
    return failure();
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> reduced, kept;
  int64_t count = 1;
  for (auto [d, t] : llvm::enumerate(iterators)) {
    if (t == utils::IteratorType::parallel) {
      kept.push_back(d);
      continue;
    }
    if (ShapedType::isDynamic(sizes[d]))
      return failure();
    reduced.push_back(d);
    count *= sizes[d];
    if (count > maxElements)
      return failure();
  }
  MLIRContext *ctx = op.getContext();
  // `map` at the reduced index `at` (one value per reduced loop), over the
  // kept loops renumbered.
  auto at = [&](AffineMap map, ArrayRef<int64_t> index) {
    SmallVector<AffineExpr> dims(op.getNumLoops());
    for (auto [i, d] : llvm::enumerate(kept))
      dims[d] = getAffineDimExpr(i, ctx);
    for (auto [i, d] : llvm::enumerate(reduced))
      dims[d] = getAffineConstantExpr(index[i], ctx);
    return map.replaceDimsAndSymbols(dims, {}, kept.size(), map.getNumSymbols());
  };
  // The reduced indices in loop order, the last loop fastest.
  SmallVector<SmallVector<int64_t>> indices;
  for (int64_t n = 0; n < count; ++n) {
    SmallVector<int64_t> index(reduced.size());
    for (int64_t r = reduced.size() - 1, rest = n; r >= 0; --r) {
      index[r] = rest % sizes[reduced[r]];
      rest /= sizes[reduced[r]];
    }
    indices.push_back(std::move(index));
  }
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (ArrayRef<int64_t> index : indices)
    for (OpOperand *input : op.getDpsInputOperands()) {
      inputs.push_back(input->get());
      maps.push_back(at(op.getMatchingIndexingMap(input), index));
    }
  OpOperand *init = op.getDpsInitOperand(0);
  // (The result's map reads no reduced loop: any index will do.)
  maps.push_back(at(op.getMatchingIndexingMap(init), indices.front()));
  unsigned numInputs = op.getNumDpsInputs();
  Value start;
  auto fill = init->get().getDefiningOp<linalg::FillOp>();
  if (fill && fill.getInputs()[0].getParentRegion()->isProperAncestor(&op.getRegion()))
    start = fill.getInputs()[0];
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  auto unrolled = linalg::GenericOp::create(
      rewriter, op.getLoc(), op->getResultTypes(), inputs, ValueRange{init->get()}, maps,
      SmallVector<utils::IteratorType>(kept.size(), utils::IteratorType::parallel),
      [&](OpBuilder &b, Location loc, ValueRange args) {
        // From the filled value when the result starts as a fill (kf's
        // reductions): the body then does not read its output, and a
        // reader's elementwise fusion need not keep the result.
        Value acc = start ? start : args.back();
        for (size_t n = 0; n < indices.size(); ++n) {
          IRMapping mapping;
          for (unsigned i = 0; i < numInputs; ++i)
            mapping.map(body.getArgument(i), args[n * numInputs + i]);
          mapping.map(body.getArgument(numInputs), acc);
          for (Operation &inner : body.without_terminator())
            b.clone(inner, mapping);
          acc = mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
        }
        linalg::YieldOp::create(b, loc, acc);
      });
  unrolled->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  rewriter.replaceOp(op, unrolled->getResults());
  // A fill only the loop read is dead once its value starts the sum (its
  // kernel's mapping would take it for the start of a reduction).
  if (start) {
    rewriter.modifyOpInPlace(unrolled, [&] {
      unrolled.getDpsInitsMutable()[0].set(fill.getOutputs()[0]);
    });
    if (fill->use_empty())
      rewriter.eraseOp(fill);
  }
  return unrolled;
}
