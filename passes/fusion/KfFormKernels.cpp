//===- KfFormKernels.cpp - group linalg ops into kf.kernel regions --------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfDialect.h"
#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "passes/fusion/KernelRegions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Remarks.h"
#include "llvm/ADT/DenseSet.h"
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
/// every decision as a remark, passed or missed.
void recordDecisions(func::FuncOp func, const KernelGraph &graph,
                     const FusionPlan &plan, const FormedKernels &formed) {
  SmallVector<kf::BoundaryAttr> boundaries;
  auto opts = remark::RemarkOpts::name("kernel-fusion")
                  .category("kf-form-kernels")
                  .function(func.getName());
  for (auto [i, edge] : llvm::enumerate(graph.edges)) {
    const EdgeDecision &d = plan.decisions[i];
    const Node &p = graph.nodes[edge.producer], &c = graph.nodes[edge.consumer];
    kf::KernelOp pk = formed.kernels[formed.kernelOfNode[edge.producer]];
    kf::KernelOp ck = formed.kernels[formed.kernelOfNode[edge.consumer]];
    std::string what = p.opName + " -> " + c.opName;
    Location loc = c.op->getLoc(); // the consumer, in the source
    if (d.reason == Reason::Fused || d.reason == Reason::Recomputed) {
      remark::passed(loc, opts.subCategory("passed"))
          << remark::add("{0} fused into {1}", what, ck.getSymName())
          << remark::reason("{0}", reasonWords(d.reason, d.rule));
      continue;
    }
    remark::missed(loc, opts.subCategory("missed"))
        << remark::add("{0}: boundary {1} -> {2}", what, pk.getSymName(),
                       ck.getSymName())
        << remark::reason("{0}: {1}", reasonCode(d.reason),
                          reasonWords(d.reason, d.rule));
    boundaries.push_back(kf::BoundaryAttr::get(
        func.getContext(), pk.getSymName(), p.opName, ck.getSymName(), c.opName,
        d.reason, reasonWords(d.reason, d.rule)));
  }
  kf::setBoundaries(func, boundaries);
}

/// Whether upstream elementwise fusion may merge the producer of `operand`
/// into its consumer: both in the same kernel, and the producer read by
/// nothing else (a producer that is also a kernel output stays, instead of
/// being computed twice).
bool sameKernel(OpOperand *operand) {
  Operation *producer = operand->get().getDefiningOp();
  Operation *consumer = operand->getOwner();
  auto kernel = consumer->getParentOfType<kf::KernelOp>();
  return producer && kernel && producer->getParentOp() == kernel &&
         consumer->getParentOp() == kernel && producer->hasOneUse();
}

/// Merges the linalg ops of each kernel with upstream elementwise fusion.
/// Each merge copies both bodies into a new op, so merging a chain of n ops
/// one after the other (what the greedy driver does) copies a growing body
/// n times: quadratic (a 10,000-op chain took 16 s). Instead, rounds: each
/// round merges a matching (every op in at most one pair), which halves a
/// chain, so a chain takes log2(n) rounds of linear work. A last greedy run
/// with every pair allowed reaches the same fixpoint as before (and runs
/// the cleanups of populateElementwiseOpsFusionPatterns).
LogicalResult mergeKernelBodies(ModuleOp module) {
  IRRewriter rewriter(module.getContext());
  for (bool merged = true; merged;) {
    merged = false;
    SmallVector<OpOperand *> pairs;
    llvm::DenseSet<Operation *> taken;
    module.walk([&](kf::KernelOp kernel) {
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
  RewritePatternSet patterns(module.getContext());
  linalg::populateElementwiseOpsFusionPatterns(patterns, sameKernel);
  return applyPatternsGreedily(module, std::move(patterns));
}

struct KfFormKernelsPass
    : kfuse::impl::KfFormKernelsBase<KfFormKernelsPass> {
  using Base::Base;
  template <typename T>
  friend FusionOptions fusion::readFusionOptions(const T &); // the options

  /// A bad option is refused before any IR is touched (llvm::cl checks
  /// `fusion`).
  LogicalResult initialize(MLIRContext *ctx) override {
    if (!parseMaxOps(maxOps))
      return emitError(UnknownLoc::get(ctx))
             << "kf-form-kernels: max-ops must be a number of ops from 0 "
                "(no limit) to 4294967295, got '"
             << maxOps << "'";
    return success();
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
    case Reason::Transpose: return numTranspose;
    case Reason::Reshape: return numReshape;
    case Reason::OpLimit: return numOpLimit;
    case Reason::Cycle: return numCycle;
    case Reason::AnchorConflict: return numAnchorConflict;
    case Reason::RowMismatch: return numRowMismatch;
    case Reason::OtherRow: return numOtherRow;
    }
    llvm_unreachable("unknown reason");
  }

  void count(const KernelGraph &graph, const FusionPlan &plan,
             const FormedKernels &formed) {
    numOps += graph.nodes.size();
    numKernels += formed.kernels.size();
    for (const EdgeDecision &d : plan.decisions) {
      ++statisticOf(d.reason);
      if (d.reason != Reason::Fused && d.reason != Reason::Recomputed)
        ++numBoundaries;
    }
    LLVM_DEBUG({
      for (kf::KernelOp kernel : formed.kernels)
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

    // Sizes of intermediate tensors are re-expressed from the arguments,
    // so no shape computation reads a value that a kernel will hide.
    RewritePatternSet dims(&getContext());
    memref::populateResolveRankedShapedTypeResultDimsPatterns(dims);
    if (failed(applyPatternsGreedily(module, std::move(dims))))
      return signalPassFailure();

    unsigned nextIndex = 0;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.getOps<kf::KernelOp>().empty())
        continue; // nothing to do, or already formed
      if (!func.getBody().hasOneBlock()) {
        func.emitError("kf-form-kernels: needs a function with one block");
        return signalPassFailure();
      }
      analysis::SymbolicShapes shapes(func);
      KernelGraph graph(func, shapes);
      FusionPlan plan = planFusion(graph, options, shapes);
      auto formed = formKernelRegions(func, graph, plan, nextIndex);
      if (failed(formed))
        return signalPassFailure();
      recordDecisions(func, graph, plan, *formed);
      count(graph, plan, *formed);
    }
    if (mergeBodies && failed(mergeKernelBodies(module)))
      return signalPassFailure();
  }
};

} // namespace
