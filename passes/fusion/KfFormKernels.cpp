//===- KfFormKernels.cpp - group linalg ops into kf.kernel regions --------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfDialect.h"
#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "passes/analysis/MatmulChain.h"
#include "passes/fusion/Isolation.h"
#include "passes/fusion/KernelRegions.h"
#include "passes/fusion/KfFormKernels.h"
#include "passes/reshapes/ReshapePropagation.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/IR/Remarks.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "kf-form-kernels"

namespace kfuse {
#define GEN_PASS_DEF_KFFORMKERNELS
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;
using namespace kfuse;
using namespace kfuse::fusion;

namespace {

/// Records every boundary on the function (`kf.boundaries`) and reports
/// every decision as a remark, passed or missed, at the consumer's place in
/// the source (`locs`, each node's: its op may since have been merged).
void recordDecisions(func::FuncOp func, const KernelGraph &graph,
                     const FusionPlan &plan, const FormedKernels &formed,
                     ArrayRef<Location> locs) {
  SmallVector<kf::BoundaryAttr> boundaries;
  auto opts = remark::RemarkOpts::name("kernel-fusion")
                  .category("kf-form-kernels")
                  .function(func.getName());
  for (auto [i, edge] : llvm::enumerate(graph.edges)) {
    const EdgeDecision &d = plan.decisions[i];
    const Node &p = graph.nodes[edge.producer], &c = graph.nodes[edge.consumer];
    StringRef pk = formed.names[formed.kernelOfNode[edge.producer]];
    StringRef ck = formed.names[formed.kernelOfNode[edge.consumer]];
    std::string what = p.opName + " -> " + c.opName;
    Location loc = locs[edge.consumer];
    if (d.reason == Reason::Fused || d.reason == Reason::Recomputed) {
      remark::passed(loc, opts.subCategory("passed"))
          << remark::add("{0} fused into {1}", what, ck)
          << remark::reason("{0}", reasonWords(d.reason, d.rule));
      continue;
    }
    remark::missed(loc, opts.subCategory("missed"))
        << remark::add("{0}: boundary {1} -> {2}", what, pk,
                       ck)
        << remark::reason("{0}: {1}", reasonCode(d.reason),
                          reasonWords(d.reason, d.rule));
    boundaries.push_back(kf::BoundaryAttr::get(
        func.getContext(), pk, p.opName, ck, c.opName,
        d.reason, reasonWords(d.reason, d.rule)));
  }
  for (const FusionPlan::Siblings &s : plan.siblings) {
    const Node &a = graph.nodes[s.first], &b = graph.nodes[s.second];
    StringRef k = formed.names[formed.kernelOfNode[s.first]];
    remark::passed(locs[s.second], opts.subCategory("passed"))
        << remark::add("{0} and {1} fused into {2}", a.opName, b.opName,
                       k)
        << remark::reason(s.acrossAxes ? "multi-reduction: one pass over the tensor they "
                                         "both reduce, one over its rows, one over its columns"
                                       : "siblings: both read the same tensor");
  }
  for (const auto &[n, why] : plan.attentionsMissed)
    remark::missed(locs[n], opts.subCategory("missed"))
        << remark::add("attention not formed as one kernel")
        << remark::reason("{0}", why);
  kf::setBoundaries(func, boundaries);
}

/// Gives each reader its own tensor.empty and accumulator fill again after
/// CSE merged equal ones: they stand for a kernel's own output buffer, and
/// two kernels (or two reductions) sharing one would share a buffer. And
/// its own tensor.cast: a cast to an unranked tensor passed to two calls
/// cannot be bufferized (no copy of an unranked buffer can be made).
void unshareInits(func::FuncOp func) {
  SmallVector<Operation *> shared;
  for (Operation &op : func.getBody().front())
    if (isa<tensor::EmptyOp, linalg::FillOp, tensor::CastOp>(op) &&
        !op.hasOneUse() && !op.use_empty())
      shared.push_back(&op);
  for (Operation *op : shared) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : op->getUses())
      uses.push_back(&use);
    for (OpOperand *use : ArrayRef<OpOperand *>(uses).drop_front()) {
      OpBuilder b(op);
      IRMapping mapping;
      // A fill's own init (a tensor.empty) is copied too.
      if (auto fill = dyn_cast<linalg::FillOp>(op))
        if (Operation *empty = fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
          mapping.map(empty->getResult(0), b.clone(*empty)->getResult(0));
      use->set(b.clone(*op, mapping)->getResult(0));
    }
  }
}

struct KfFormKernelsPass
    : kfuse::impl::KfFormKernelsBase<KfFormKernelsPass> {
  using Base::Base;
  template <typename T>
  friend FusionOptions fusion::readFusionOptions(const T &); // the options

  /// What the target runs (MappingQuery.h); none: nothing is checked.
  KernelMappingQuery query;

  /// A bad option is refused before any IR is touched (llvm::cl checks
  /// `fusion`).
  LogicalResult initialize(MLIRContext *ctx) override {
    return checkStringOptions(ctx, "kf-form-kernels", maxOps, attentionMinScores);
  }

  /// The statistic that counts the pairs decided for `r`.
  Statistic &statisticOf(Reason r) {
    switch (r) {
    case Reason::Fused: return numFused;
    case Reason::Recomputed: return numRecomputed;
    case Reason::FusionOff: return numFusionOff;
    case Reason::RuleDisabled: return numRuleDisabled;
    case Reason::ProducerReduction: return numProducerReduction;
    case Reason::DuplicateReduction: return numDuplicateReduction;
    case Reason::ReductionMismatch: return numReductionMismatch;
    case Reason::MatmulBoundary: return numMatmulBoundary;
    case Reason::NotInPlace: return numNotInPlace;
    case Reason::Reshape: return numReshape;
    case Reason::OpLimit: return numOpLimit;
    case Reason::Cycle: return numCycle;
    case Reason::AnchorConflict: return numAnchorConflict;
    case Reason::RowMismatch: return numRowMismatch;
    case Reason::OtherRow: return numOtherRow;
    case Reason::Materialize: return numMaterialize;
    case Reason::Unmappable: return numUnmappable;
    case Reason::Gathered: return numGathered;
    }
    llvm_unreachable("unknown reason");
  }

  void count(const KernelGraph &graph, const FusionPlan &plan,
             const FormedKernels &formed) {
    numOps += graph.nodes.size();
    numKernels += llvm::count_if(formed.kernels,
                                 [](kf::KernelOp k) { return bool(k); });
    for (const EdgeDecision &d : plan.decisions) {
      ++statisticOf(d.reason);
      if (d.reason != Reason::Fused && d.reason != Reason::Recomputed)
        ++numBoundaries;
    }
    LLVM_DEBUG({
      for (kf::KernelOp kernel : formed.kernels)
        if (kernel)
        llvm::dbgs() << "[" DEBUG_TYPE "] formed " << kernel.getSymName()
                     << " (" << kernel.getBody().front().getOperations().size() - 1
                     << " linalg ops before merging)\n";
    });
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FusionOptions options = readFusionOptions(*this);
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << toString(options)
                            << "\n");

    unsigned nextIndex = 0;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.getOps<kf::KernelOp>().empty())
        continue; // nothing to do, or already formed
      if (!func.getBody().hasOneBlock()) {
        func.emitError("kf-form-kernels: needs a function with one block");
        return signalPassFailure();
      }
      if (options.enabled && options.allows(FusionRule::ReshapePropagation) &&
          failed(propagateWherePays(func, options)))
        return signalPassFailure();
      if (failed(prepare(func, options)) ||
          failed(formFunction(func, options, nextIndex)))
        return signalPassFailure();
    }
    // Bodies were merged function by function (formFunction).
    return;
  }

  /// What formation needs first. Sizes of intermediate tensors are
  /// re-expressed from the arguments, so no shape computation reads a value
  /// that a kernel will hide. Equal ops (`mm(cos(x), cos(x))`) are computed
  /// once: upstream CSE, before the graph is built; not with fusion off:
  /// eager PyTorch runs each of them.
  LogicalResult prepare(func::FuncOp func, const FusionOptions &options) {
    RewritePatternSet dims(&getContext());
    memref::populateResolveRankedShapedTypeResultDimsPatterns(dims);
    if (failed(applyPatternsGreedily(func, std::move(dims))))
      return failure();
    if (options.enabled) {
      IRRewriter rewriter(&getContext());
      DominanceInfo dominance(func);
      eliminateCommonSubExpressions(rewriter, dominance, func);
      unshareInits(func);
    }
    return success();
  }

  /// How many kernels formation makes of `func` (on a copy, recording
  /// nothing and saying nothing: a failure here is the real run's to
  /// report).
  FailureOr<unsigned> kernelsFormed(func::FuncOp func,
                                    const FusionOptions &options) {
    ScopedDiagnosticHandler quiet(&getContext(),
                                  [](Diagnostic &) { return success(); });
    func::FuncOp work = func.clone();
    unsigned index = 0;
    LogicalResult formed = success(succeeded(prepare(work, options)) &&
                                   succeeded(formFunction(work, options, index,
                                                          /*record=*/false)));
    unsigned kernels = llvm::range_size(work.getOps<kf::KernelOp>());
    work.erase();
    if (failed(formed))
      return failure();
    return kernels;
  }

  /// Moves the reshapes of `func` out of kernels' way (passes/reshapes/),
  /// unless that makes more kernels than the function as written: the
  /// planner approximates the mappings, and a kernel whose ops the moves
  /// gave other loops can be one that no mapping serves, whose ops are then
  /// kept apart (a batch_norm after a keepdim reduction: 4 kernels became 7;
  /// 7 of 1,000 random programs made more kernels, 31 fewer). Both are
  /// formed on copies; a remark says when the moves are undone.
  LogicalResult propagateWherePays(func::FuncOp func,
                                   const FusionOptions &options) {
    func::FuncOp moved = func.clone();
    FailureOr<unsigned> trial = propagateReshapes(moved, /*remarks=*/false);
    FailureOr<unsigned> with = failure();
    if (succeeded(trial) && *trial)
      with = kernelsFormed(moved, options);
    moved.erase();
    // Nothing moves, the moves did not settle (the greedy driver's limit),
    // or the moved form does not form: the function stays as written.
    if (failed(trial) || *trial == 0 || failed(with))
      return success();
    FailureOr<unsigned> without = kernelsFormed(func, options);
    if (succeeded(without) && *with > *without) {
      auto opts = remark::RemarkOpts::name("reshape-propagation")
                      .category("kf-form-kernels")
                      .subCategory("missed")
                      .function(func.getName());
      remark::missed(func.getLoc(), opts)
          << remark::add("reshapes left in place: moved, {0} kernels; as "
                         "written, {1}",
                         *with, *without);
      return success();
    }
    FailureOr<unsigned> movedOps = propagateReshapes(func, /*remarks=*/true);
    if (failed(movedOps))
      return func.emitError("kf-form-kernels: moving reshapes did not settle "
                            "(as it did on a copy); reshape-propagation=false "
                            "avoids it");
    numReshapesMoved += *movedOps;
    return success();
  }

  /// Forms the kernels of `func`. With `check-mappings`, on a copy first:
  /// a kernel that no GPU mapping serves (the rules are an approximation
  /// of the mappings' conditions; the mappings decide) has its ops kept in
  /// kernels of their own and the plan is made again, so that a kernel
  /// this pass forms is always one the GPU can run. Each round keeps at
  /// least one more op alone: it ends.
  LogicalResult formFunction(func::FuncOp func, const FusionOptions &options,
                             unsigned &nextIndex, bool record = true) {
    bool check = checkMappings && mergeBodies && options.enabled && query;
    Isolation isolated;
    for (;;) {
      func::FuncOp work = check ? func.clone() : func;
      unsigned index = nextIndex;
      analysis::SymbolicShapes shapes(work);
      KernelGraph graph(work, shapes);
      if (isolated.alone.empty()) {
        isolated.alone.assign(graph.nodes.size(), false);
        isolated.why.assign(graph.nodes.size(), "");
        isolated.round.assign(graph.nodes.size(), 0);
        isolated.keepFused.assign(graph.nodes.size(), false);
        isolated.noAttention.assign(graph.nodes.size(), false);
        isolated.noMultiReduction.assign(graph.nodes.size(), false);
      }
      FusionPlan plan = planFusion(graph, options, shapes, isolated);
      SmallVector<Location> locs;
      for (const Node &node : graph.nodes)
        locs.push_back(node.op->getLoc());
      auto formed = formKernelRegions(work, graph, plan, index);
      if (failed(formed) || (mergeBodies && failed(mergeKernelBodies(work)))) {
        if (check)
          work.erase();
        return failure();
      }
      forgetErasedKernels(work, *formed);
      bool again = check && isolateUnmappable(graph, plan, *formed, isolated, query);
      if (again) {
        work.erase();
        continue;
      }
      if (check) {
        func.getBody().takeBody(work.getBody());
        work.erase();
      }
      nextIndex = index;
      if (record) {
        recordDecisions(func, graph, plan, *formed, locs);
        count(graph, plan, *formed);
      }
      return success();
    }
  }

  /// Merging the bodies may erase a kernel: one whose results folded away
  /// (a slice of a cat that reads only the other operand). Its entry in
  /// `formed` becomes null, as the kernels formKernelRegions found dead
  /// are, so that nothing reads the freed op (the mapping check printed it
  /// and crashed: fuzz seed 2711, test/Regression/kernel-erased-by-merge.mlir).
  static void forgetErasedKernels(func::FuncOp work, FormedKernels &formed) {
    llvm::SmallPtrSet<Operation *, 16> live;
    work.walk([&](kf::KernelOp kernel) { live.insert(kernel); });
    for (kf::KernelOp &kernel : formed.kernels)
      if (kernel && !live.contains(kernel.getOperation()))
        kernel = nullptr;
  }

};

} // namespace

std::unique_ptr<Pass>
kfuse::fusion::createKfFormKernels(const KfFormKernelsOptions &options,
                                   KernelMappingQuery query) {
  auto pass = std::make_unique<KfFormKernelsPass>(options);
  pass->query = std::move(query);
  return pass;
}
