//===- KernelBodies.cpp - the linalg ops of each kernel merged ------------===//
//
// After formation each kernel holds one linalg op per kf op. Its ops are
// merged into as few as its mapping needs: upstream's elementwise fusion,
// pair by pair in rounds; long elementwise runs at once (below); and a
// shared elementwise producer read at other places than it is computed
// copied into each reader first (copySharedProducers).
//
// Long runs: upstream's elementwise fusion merges two ops at a time into a
// new op that copies both bodies. kf-form-kernels merges a chain in rounds
// (n log n), but a DAG whose ops share producers (`v2 = v1 + v0; v3 = v2 +
// v1`) only fuses a producer once all its readers have become one op: one
// level per round, each copying the grown body, so quadratic (1,000 such
// ops took 7 s; 12 ran past the greedy driver's 10 rounds and the pass
// failed). A run of elementwise ops over one iteration space that read each
// other in loop order is one loop nest whatever the shape of its DAG: its
// body is the ops' bodies, each cloned once, in program order. Short runs
// stay with upstream's fusion, whose merged ops the mappings were built on.
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfOps.h"
#include "passes/fusion/FusionOptions.h"
#include "passes/fusion/KernelRegions.h"
#include "passes/utils/UnrollReduction.h"
#include "dialect/Kf/KfAttrs.h"
#include "passes/analysis/MatmulChain.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace kfuse::fusion {
namespace {

/// An elementwise op a run can hold: every loop parallel, results indexed
/// in loop order and not read by its body (they are only written), and
/// neither a view's copy, the finish of a reduction nor a matmul chain's
/// sum (ops the mappings look for by their marks or their shape).
bool runnable(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumReductionLoops() != 0 || kf::isView(op) ||
      kf::isFinisher(op) || analysis::isChainSum(op))
    return false;
  for (OpOperand &init : generic.getDpsInitsMutable())
    if (!generic.getMatchingIndexingMap(&init).isIdentity() ||
        !generic.getMatchingBlockArgument(&init).use_empty())
      return false;
  return true;
}

struct Run {
  SmallVector<linalg::GenericOp> ops;
  llvm::DenseSet<Operation *> members;

  bool holds(Value v) const {
    Operation *def = v.getDefiningOp();
    return def && members.contains(def);
  }
  void add(linalg::GenericOp op) {
    ops.push_back(op);
    members.insert(op);
  }
};

/// Whether `op` reads any value of `run`, and whether it reads them all in
/// loop order (then, being runnable, it iterates over the run's space).
std::pair<bool, bool> readsOf(const Run &run, Operation *op) {
  bool any = false, inOrder = true;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  for (OpOperand &operand : op->getOpOperands()) {
    if (!run.holds(operand.get()))
      continue;
    any = true;
    inOrder &= generic && generic.isDpsInput(&operand) &&
               generic.getMatchingIndexingMap(&operand).isIdentity();
  }
  // A region (a payload) may capture a run's value too.
  op->walk([&](Operation *nested) {
    if (nested != op)
      for (Value v : nested->getOperands())
        if (run.holds(v))
          any = true, inOrder = false;
  });
  return {any, inOrder};
}

void merge(Run &run) {
  linalg::GenericOp last = run.ops.back();
  MLIRContext *ctx = last.getContext();
  Location loc = last.getLoc();
  unsigned loops = last.getNumLoops();
  // Inputs: each value the run reads from outside, once per index map.
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  llvm::DenseMap<std::pair<Value, AffineMap>, unsigned> inputIndex;
  for (linalg::GenericOp op : run.ops)
    for (OpOperand *in : op.getDpsInputOperands()) {
      if (run.holds(in->get()))
        continue;
      auto key = std::make_pair(in->get(), op.getMatchingIndexingMap(in));
      if (inputIndex.try_emplace(key, inputs.size()).second) {
        inputs.push_back(key.first);
        maps.push_back(key.second);
      }
    }
  // Outputs: the values read after the run, written into their own inits.
  SmallVector<Value> results, inits;
  for (linalg::GenericOp op : run.ops)
    for (OpResult r : op->getResults())
      if (llvm::any_of(r.getUsers(),
                       [&](Operation *u) { return !run.members.contains(u); })) {
        results.push_back(r);
        inits.push_back(op.getDpsInitOperand(r.getResultNumber())->get());
        maps.push_back(AffineMap::getMultiDimIdentityMap(loops, ctx));
      }
  OpBuilder b(ctx);
  b.setInsertionPointAfter(last);
  SmallVector<utils::IteratorType> iterators(loops,
                                             utils::IteratorType::parallel);
  auto merged = linalg::GenericOp::create(b, loc, ValueRange(results).getTypes(),
                                          inputs, inits, maps, iterators);
  Block *body = b.createBlock(&merged.getRegion());
  for (Value v : llvm::concat<Value>(inputs, inits))
    body->addArgument(getElementTypeOrSelf(v.getType()), loc);
  // Each op's body once: its reads of the run are the values computed
  // before it in this body.
  llvm::DenseMap<Value, Value> computed;
  for (linalg::GenericOp op : run.ops) {
    IRMapping mapping;
    for (OpOperand *in : op.getDpsInputOperands()) {
      BlockArgument arg = op.getMatchingBlockArgument(in);
      if (run.holds(in->get()))
        mapping.map(arg, computed.lookup(in->get()));
      else
        mapping.map(arg, body->getArgument(inputIndex.lookup(
                             {in->get(), op.getMatchingIndexingMap(in)})));
    }
    for (Operation &inner : op.getBody()->without_terminator())
      b.clone(inner, mapping);
    auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
    for (auto [r, v] : llvm::zip(op->getResults(), yield.getOperands()))
      computed[r] = mapping.lookupOrDefault(v);
  }
  SmallVector<Value> yielded;
  for (Value r : results)
    yielded.push_back(computed.lookup(r));
  linalg::YieldOp::create(b, loc, yielded);
  for (auto [r, m] : llvm::zip(results, merged.getResults()))
    r.replaceUsesWithIf(m, [&](OpOperand &use) {
      return !run.members.contains(use.getOwner());
    });
  for (linalg::GenericOp op : llvm::reverse(run.ops))
    op->erase();
}

/// An attention kernel's ops stay as formed: its mapping reads the
/// pattern (analysis/Attention.h) op by op.
bool inAttentionKernel(kf::KernelOp kernel) {
  return kernel && kernel.getKind() == kf::KernelKind::Attention;
}

/// Whether upstream elementwise fusion may merge the producer of `operand`
/// into its consumer: both in the same kernel (not an attention kernel),
/// neither a matmul chain's sum, and the producer read by nothing else (a
/// producer that is also a kernel output stays, not computed twice).
bool sameKernel(OpOperand *operand) {
  Operation *producer = operand->get().getDefiningOp(), *consumer = operand->getOwner();
  auto kernel = consumer->getParentOfType<kf::KernelOp>();
  return producer && kernel && !inAttentionKernel(kernel) &&
         producer->getParentOp() == kernel && consumer->getParentOp() == kernel &&
         producer->hasOneUse() && !analysis::isChainSum(producer) &&
         !analysis::isChainSum(consumer);
}

/// Reads through a tensor.collapse_shape that only drops unit dims (a
/// stretched broadcast operand, kf-to-linalg's) of an elementwise generic
/// of the same kernel read by nothing else: the reader reads the producer
/// itself, at index 0 of those dims, so that elementwise fusion can
/// compute the producer where it is read (fusion cannot look through the
/// reshape).
void readThroughUnitDimCollapses(Operation *root) {
  root->walk([](linalg::GenericOp reader) {
    auto kernel = reader->getParentOfType<kf::KernelOp>();
    if (!kernel || inAttentionKernel(kernel))
      return;
    for (OpOperand *input : reader.getDpsInputOperands()) {
      auto collapse = input->get().getDefiningOp<tensor::CollapseShapeOp>();
      if (!collapse || !collapse->hasOneUse() ||
          collapse->getParentOp() != kernel.getOperation())
        continue;
      auto producer = collapse.getSrc().getDefiningOp<linalg::GenericOp>();
      if (!producer || !producer->hasOneUse() ||
          producer.getNumReductionLoops() != 0 ||
          producer->getParentOp() != kernel.getOperation())
        continue;
      // Each group: one kept dim (any size) and unit dims, or unit dims only.
      auto srcShape = collapse.getSrcType().getShape();
      AffineMap map = reader.getMatchingIndexingMap(input);
      SmallVector<AffineExpr> exprs;
      bool ok = true;
      for (auto [g, group] : llvm::enumerate(collapse.getReassociationIndices())) {
        unsigned kept = 0, keptDim = group.front();
        for (int64_t d : group)
          if (srcShape[d] != 1) {
            ++kept;
            keptDim = d;
          }
        ok &= kept <= 1;
        for (int64_t d : group)
          exprs.push_back(d == keptDim ? map.getResult(g)
                                       : getAffineConstantExpr(0, reader.getContext()));
      }
      // Collapsed to 0-d: no groups, every source dim a unit one.
      if (collapse.getReassociationIndices().empty())
        for (int64_t d : srcShape) {
          ok &= d == 1;
          exprs.push_back(getAffineConstantExpr(0, reader.getContext()));
        }
      if (!ok)
        continue;
      SmallVector<AffineMap> maps = reader.getIndexingMapsArray();
      maps[input->getOperandNumber()] =
          AffineMap::get(map.getNumDims(), 0, exprs, reader.getContext());
      reader.setIndexingMapsAttr(
          OpBuilder(reader).getAffineMapArrayAttr(maps));
      input->set(collapse.getSrc());
      collapse->erase();
    }
  });
}


/// Most body ops of a producer copied into its readers, and most copies
/// made in one kernel: past them the kernel keeps the shared producer, its
/// mapping check fails and the planner splits it (no blow-up on a DAG of
/// broadcast subexpressions).
constexpr unsigned kMaxCopiedOps = 8, kMaxCopies = 64;

/// Whether `reader` reads `use` at another place than where each element
/// was computed: through a broadcast (`y[:, None]`, fewer dims than the
/// reader's loops) or a permutation of them (`y.t()`).
bool readsElsewhere(OpOperand &use) {
  auto reader = cast<linalg::LinalgOp>(use.getOwner());
  return reader.getMatchingIndexingMap(&use) !=
         AffineMap::getMultiDimIdentityMap(reader.getNumLoops(), use.get().getContext());
}

/// Gives each reader of a shared elementwise producer of a pointwise
/// `kernel` (arithmetic, no math function) its own copy where some reader
/// reads it elsewhere (readsElsewhere):
/// `y = x * s + t; y[:, None] * y[None, :]`. Upstream fusion computes a
/// producer inside its reader only when that is its one reader, and a
/// kernel that keeps `y` (64 elements) beside the product (64 x 64) has
/// ops over two shapes, which no mapping runs: it was split in two, where
/// Inductor inlines the cheap producer into each read and makes one
/// kernel. Each copy is then fused into its reader and computed at each
/// element read, as the planner's broadcast reads already are (`y[:,
/// None] + z`). Producers read in place by all their readers stay shared:
/// the kernel computes them once; so do a row kernel's, whose mappings
/// keep a row's values (a softmax's exp read by its sum and, transposed,
/// by its division). Returns whether it copied any.
bool copySharedProducers(kf::KernelOp kernel, unsigned &copies) {
  bool copied = false;
  SmallVector<linalg::GenericOp> producers;
  for (Operation &op : kernel.getBody().front())
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      producers.push_back(generic);
  for (linalg::GenericOp producer : producers) {
    if (producer->getNumResults() != 1 || producer->hasOneUse() ||
        producer.getNumParallelLoops() != producer.getNumLoops() ||
        analysis::isChainSum(producer) ||
        producer.getRegion().front().getOperations().size() > kMaxCopiedOps + 1)
      continue;
    // Arithmetic only: a copy runs at every element read, and an exp read
    // broadcast both ways would go from N evaluations to 2 N^2 (2.1-2.3x
    // slower on the CPU than a kernel of its own for the N values).
    if (llvm::any_of(producer.getRegion().front(), [](Operation &op) {
          return isa<math::MathDialect>(op.getDialect());
        }))
      continue;
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : producer->getUses())
      uses.push_back(&use);
    bool fusable = llvm::all_of(uses, [&](OpOperand *use) {
      return isa<linalg::GenericOp>(use->getOwner()) &&
             use->getOwner()->getParentOp() == kernel.getOperation() &&
             linalg::areElementwiseOpsFusable(use);
    });
    if (!fusable || llvm::none_of(uses, [](OpOperand *u) { return readsElsewhere(*u); }) ||
        copies + uses.size() - 1 > kMaxCopies)
      continue;
    OpBuilder b(producer);
    for (OpOperand *use : ArrayRef<OpOperand *>(uses).drop_front())
      use->set(b.clone(*producer)->getResult(0));
    copies += uses.size() - 1;
    copied = true;
  }
  return copied;
}

/// The static number of elements `op` reduces to each result, if known.
std::optional<int64_t> reducedElements(linalg::GenericOp op) {
  int64_t n = 1;
  for (auto [t, size] : llvm::zip(op.getIteratorTypesArray(), op.getStaticLoopRanges()))
    if (t == utils::IteratorType::reduction) {
      if (ShapedType::isDynamic(size))
        return std::nullopt;
      n *= size;
    }
  return n;
}

/// Unrolls the small reductions (at most kSmallReductionElements) of a row
/// kernel whose results are the rows x columns of a larger reduction of
/// the kernel, when each reader reads them at its own element: the sums
/// over k of `((x[:, None] - x[None]) ** 2).sum(2).max(1)` (or of
/// `softmax(-dist, 1)`), whose row reduction reduces them over j (the
/// planner put them there only so: the rule reduction-prologue,
/// SmallReductions.cpp). Unrolled (unrollReductionLoops)
/// they are elementwise, and the row reduction takes them as its prologue:
/// one reduction over (i, j) whose body sums the k terms. A row kernel of
/// small reductions only (softmax over 8 columns) keeps them: they are its
/// rows'. Run once the rest is merged, so that a small reduction's own
/// producers are already in it. Returns whether it unrolled any.
bool unrollPrologueReductions(kf::KernelOp kernel, RewriterBase &rewriter) {
  SmallVector<linalg::GenericOp> small;
  SmallVector<SmallVector<int64_t>> rowSpaces; // the larger reductions' loops
  for (Operation &op : kernel.getBody().front()) {
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic || generic.getNumReductionLoops() == 0)
      continue;
    std::optional<int64_t> n = reducedElements(generic);
    if (!n || *n > kSmallReductionElements) {
      // A row reduction (rows left: the planner's takesSmallPrologues); a
      // full one (a chain's final reduction) takes none.
      bool rows = llvm::any_of(
          llvm::zip(generic.getIteratorTypesArray(), generic.getStaticLoopRanges()),
          [](auto it) {
            return std::get<0>(it) == utils::IteratorType::parallel && std::get<1>(it) != 1;
          });
      if (rows)
        rowSpaces.push_back(generic.getStaticLoopRanges());
      continue;
    }
    // (Also a result of the kernel: the row kernel writes its rows x
    // columns. A reduction no op reads, as a chain's final one, stays.)
    bool read = llvm::any_of(generic->getUsers(),
                             [](Operation *u) { return isa<linalg::GenericOp>(u); });
    bool inPlace = read && llvm::all_of(generic->getUses(), [&](OpOperand &use) {
      auto reader = dyn_cast<linalg::GenericOp>(use.getOwner());
      if (!reader)
        return isa<kf::YieldOp>(use.getOwner());
      return reader->getParentOp() == kernel.getOperation() &&
             reader.getMatchingIndexingMap(&use).isIdentity();
    });
    if (inPlace)
      small.push_back(generic);
  }
  // Only a reduction over the rows x columns of a larger one (what the
  // planner joins): a multi-reduction's small reduction over its columns
  // stays one of its reductions.
  bool unrolled = false;
  for (linalg::GenericOp op : small) {
    SmallVector<int64_t> results;
    for (auto [t, size] : llvm::zip(op.getIteratorTypesArray(), op.getStaticLoopRanges()))
      if (t == utils::IteratorType::parallel)
        results.push_back(size);
    if (llvm::is_contained(rowSpaces, results))
      unrolled |= succeeded(unrollReductionLoops(rewriter, op, kSmallReductionElements));
  }
  return unrolled;
}
} // namespace

/// Upstream elementwise fusion, in rounds of pairs (after the copies of
/// shared producers each round needs and the long runs).
/// Each merge copies both bodies into a new op, so merging a chain of n ops
/// one after the other (what the greedy driver does) copies a growing body
/// n times: quadratic (a 10,000-op chain took 16 s). Instead, rounds: each
/// round merges a matching (every op in at most one pair), which halves a
/// chain, so a chain takes log2(n) rounds of linear work. A last greedy run
/// with every pair allowed reaches the same fixpoint as before (and runs
/// the cleanups of populateElementwiseOpsFusionPatterns).
LogicalResult mergeKernelBodies(Operation *root) {
  readThroughUnitDimCollapses(root);
  root->walk([](kf::KernelOp kernel) {
    if (!inAttentionKernel(kernel))
      mergeElementwiseRuns(kernel.getBody().front());
  });
  IRRewriter rewriter(root->getContext());
  DenseMap<Operation *, unsigned> copies; // a kernel's, copySharedProducers'
  for (bool merged = true; merged;) {
    merged = false;
    root->walk([&](kf::KernelOp kernel) {
      if (kernel.getKind() == kf::KernelKind::Pointwise)
        merged |= copySharedProducers(kernel, copies[kernel]);
    });
    SmallVector<OpOperand *> pairs;
    llvm::DenseSet<Operation *> taken;
    root->walk([&](kf::KernelOp kernel) {
      for (Operation &op : kernel.getBody().front()) {
        if (!isa<linalg::GenericOp>(op) || taken.contains(&op))
          continue;
        for (OpOperand &operand : op.getOpOperands()) {
          Operation *producer = operand.get().getDefiningOp();
          if (!producer || taken.contains(producer) || !sameKernel(&operand) ||
              !linalg::areElementwiseOpsFusable(&operand))
            continue;
          pairs.push_back(&operand);
          taken.insert(producer);
          taken.insert(&op);
          break;
        }
      }
    });
    // As upstream's FuseElementwiseOps pattern does, pair by pair.
    for (OpOperand *operand : pairs) {
      Operation *consumer = operand->getOwner();
      Operation *producer = operand->get().getDefiningOp();
      rewriter.setInsertionPoint(consumer);
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, operand);
      if (failed(fused))
        continue;
      for (auto [from, to] : fused->replacements)
        rewriter.replaceUsesWithIf(from, to, [&](OpOperand &use) {
          return use.get().getDefiningOp() != producer;
        });
      rewriter.eraseOp(consumer);
      if (producer->use_empty())
        rewriter.eraseOp(producer);
      merged = true;
    }
  }
  RewritePatternSet patterns(root->getContext());
  linalg::populateElementwiseOpsFusionPatterns(patterns, sameKernel);
  // No limit on the rounds: a producer read twice by one op (`v2 = v1 +
  // v0; v3 = v2 + v1`) only fuses after the operands are deduplicated, one
  // level of such a DAG per round, so a chain of shared producers takes as
  // many rounds as it is deep (12 ops exceeded the default 10, and the pass
  // failed). Each fusion removes an op: the driver ends.
  GreedyRewriteConfig config;
  config.setMaxIterations(GreedyRewriteConfig::kNoLimit);
  FrozenRewritePatternSet frozen(std::move(patterns));
  if (failed(applyPatternsGreedily(root, frozen, config)))
    return root->emitError("kf-form-kernels: merging the ops of the kernels "
                           "did not converge");
  // Small reductions, once merged with their producers (and their reads
  // deduplicated, `d * d`), unrolled into the row reduction reading them.
  bool unrolled = false;
  root->walk([&](kf::KernelOp kernel) {
    if (kernel.getKind() == kf::KernelKind::Reduction)
      unrolled |= unrollPrologueReductions(kernel, rewriter);
  });
  if (unrolled && failed(applyPatternsGreedily(root, frozen, config)))
    return root->emitError("kf-form-kernels: merging the ops of the kernels "
                           "did not converge");
  readRowValuesInRowOrder(root);
  return success();
}



void mergeElementwiseRuns(Block &kernelBody) {
  SmallVector<Operation *> ops;
  for (Operation &op : kernelBody)
    ops.push_back(&op);
  Run run;
  auto flush = [&]() {
    if (run.ops.size() >= kMinElementwiseRun)
      merge(run);
    run = Run();
  };
  for (Operation *op : ops) {
    auto [reads, inOrder] = readsOf(run, op);
    // A new member reads the run in loop order (so it iterates over the
    // same space: dynamic sizes cannot be compared otherwise).
    if (reads && inOrder && runnable(op)) {
      run.add(cast<linalg::GenericOp>(op));
      continue;
    }
    // An op that reads the run otherwise comes after it: the run ends.
    if (reads)
      flush();
    if ((run.ops.empty() || reads) && runnable(op))
      run.add(cast<linalg::GenericOp>(op));
  }
  flush();
}

} // namespace kfuse::fusion
