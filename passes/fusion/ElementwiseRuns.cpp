//===- ElementwiseRuns.cpp - long elementwise runs merged at once ---------===//
//
// Upstream's elementwise fusion merges two ops at a time into a new op that
// copies both bodies. kf-form-kernels merges a chain in rounds (n log n),
// but a DAG whose ops share producers (`v2 = v1 + v0; v3 = v2 + v1`) only
// fuses a producer once all its readers have become one op: one level per
// round, each copying the grown body, so quadratic (1,000 such ops took
// 7 s; 12 ran past the greedy driver's 10 rounds and the pass failed). A
// run of elementwise ops over one iteration space that read each other in
// loop order is one loop nest whatever the shape of its DAG: its body is
// the ops' bodies, each cloned once, in program order. Short runs stay
// with upstream's fusion, whose merged ops the mappings were built on.
//
//===----------------------------------------------------------------------===//
#include "passes/fusion/ElementwiseRuns.h"
#include "dialect/Kf/KfAttrs.h"
#include "passes/analysis/MatmulChain.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
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

} // namespace

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
