//===- Recompute.cpp - a cheap producer copied into its consumer's kernel -===//
//
// After grouping, an elementwise producer left on the other side of a
// boundary is recomputed in its consumer's kernel when reading the
// producer's inputs there moves fewer bytes than reading its result (as
// Inductor's scheduler does for cheap pointwise nodes).
//
//===----------------------------------------------------------------------===//
#include "passes/fusion/Planner.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"

#include <map>

#define DEBUG_TYPE "kf-form-kernels"

using namespace mlir;

namespace kfuse::fusion {

/// Bytes at typical sizes (every dynamic dim 1024), for comparisons only.
int64_t Planner::typicalBytes(Value v) {
  std::vector<std::optional<int64_t>> symbols(shapes.symbolMeanings().size(),
                                              1024);
  return shapes.bytes(v).evaluate(symbols).value_or(0);
}

void Planner::recompute(FusionPlan &plan) {
  if (!opt.enabled || !opt.recompute)
    return;
  // The edges each producer could be recomputed through, by the kernel
  // that reads it: a producer read twice by one kernel (`y.t() + y`, or
  // `y[:, None] * y[None, :]`) is copied for both reads or for none, and
  // only then does that kernel stop reading its result.
  std::map<std::pair<unsigned, unsigned>, SmallVector<unsigned>> candidates;
  std::map<std::pair<unsigned, unsigned>, unsigned> reads; // all edges, by the same key
  for (const Edge &e : g.edges)
    ++reads[{e.producer, groupOf[e.consumer]}];
  for (unsigned i = 0; i < g.edges.size(); ++i) {
    const Edge &e = g.edges[i]; // not a structured binding: lambdas use it
    if (e.gathered)
      continue; // read at loaded indices: never recomputed per element
    const Node &p = g.nodes[e.producer];
    unsigned cg = groupOf[e.consumer];
    const Group &consumerGroup = groups[cg];
    // The copy is read by the consumer alone: merging bodies computes it
    // at each element the consumer reads, unless a reshape stands between
    // (then it must be read in place).
    bool readable = e.direct || (e.readMap.isIdentity() &&
                                 p.outDomain == domainOf(e.consumer));
    if (plan.decisions[i].reason == Reason::Fused ||
        plan.decisions[i].reason == Reason::FusionOff ||
        p.kind != KernelKind::Pointwise || e.throughReshape || !readable ||
        isolated.alone[e.producer] || isolated.alone[e.consumer] ||
        consumerGroup.attention || consumerGroup.multiReduction ||
        (opt.maxOps && consumerGroup.nodes.size() + 1 > opt.maxOps) ||
        !fitsRows(p.domain, consumerGroup.reduction,
                  consumerGroup.finalReduction) ||
        (consumerGroup.matmul &&
         p.domain != g.nodes[*consumerGroup.matmul].outDomain))
      continue;
    // Only rules that would fuse the pair (not the producer's other
    // readers) may be bypassed.
    EdgeDecision local = localRule(e);
    if (local.reason != Reason::Fused && local.reason != Reason::NotInPlace)
      continue;
    // The clone reads the producer's inputs; it must not need a value that
    // only the producer's own kernel has.
    auto inputs = cast<linalg::LinalgOp>(p.op).getDpsInputs();
    bool inputsAvailable = llvm::all_of(inputs, [&](Value v) {
      bool reshaped = false;
      auto src = g.producerOf(v, reshaped);
      return !src || groupOf[*src] != groupOf[e.producer];
    });
    if (inputsAvailable)
      candidates[{e.producer, cg}].push_back(i);
  }
  for (auto &[key, edges] : candidates) {
    auto [producer, cg] = key;
    const Node &p = g.nodes[producer];
    Value result = p.op->getResult(0);
    const Group &consumerGroup = groups[cg];
    llvm::SmallDenseSet<unsigned> copied;
    for (unsigned i : edges)
      copied.insert(g.edges[i].consumer);
    // What the consumer's kernel reads already costs nothing more (its
    // ops but the copies' readers: those read the result, not its inputs).
    llvm::DenseSet<Value> alreadyRead;
    for (unsigned n : consumerGroup.nodes)
      if (!copied.contains(n))
        for (Value v : cast<linalg::LinalgOp>(g.nodes[n].op).getDpsInputs())
          alreadyRead.insert(v);
    auto inputs = cast<linalg::LinalgOp>(p.op).getDpsInputs();
    int64_t dup = 0;
    for (Value v : inputs)
      if (!alreadyRead.contains(v))
        dup += typicalBytes(v);
    // Keeping the boundary costs the consumer kernel's read of the result,
    // unless another of its reads stays (an op not copied into, an edge
    // that cannot be recomputed); and the producer's write when this
    // kernel is its only reader outside its own kernel.
    bool everyRead = reads[key] == edges.size() && !alreadyRead.contains(result);
    int64_t keep = everyRead ? typicalBytes(result) : 0;
    bool onlyReader = llvm::all_of(result.getUsers(), [&](Operation *user) {
      auto it = g.nodeOf.find(user);
      return it != g.nodeOf.end() &&
             (groupOf[it->second] == cg || groupOf[it->second] == groupOf[producer]);
    });
    if (onlyReader && everyRead)
      keep += typicalBytes(result);
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] recompute " << p.opName << "#" << producer
                            << " in kernel " << cg << " (" << edges.size()
                            << " reads)? reads " << dup << " bytes more, saves " << keep
                            << (dup < keep ? ": yes\n" : ": no\n"));
    if (dup >= keep)
      continue;
    for (unsigned i : edges) {
      plan.decisions[i] = {Reason::Recomputed, ruleName(FusionRule::Recompute).str()};
      plan.recomputed.push_back(i);
    }
  }
}

} // namespace kfuse::fusion
