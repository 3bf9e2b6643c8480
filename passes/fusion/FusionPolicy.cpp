//===- FusionPolicy.cpp - which kernels fuse, and why not -----------------===//
//
// Kernels are grouped greedily in program order, as Inductor's scheduler
// does: each edge is first judged on its own (does a rule allow fusing this
// kind of producer into this kind of consumer?), then the two groups must be
// compatible (one matmul or one family of reductions per kernel, the op
// limit, no cycle between kernels). A cheap elementwise producer left on the
// other side of a boundary is recomputed in its consumer when that moves
// fewer bytes. Upstream linalg fusion has no notion of such groups, so this
// is kfuse's own; the fusion of the ops inside a group is upstream's.
//
//===----------------------------------------------------------------------===//
#include "passes/fusion/FusionPolicy.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Debug.h"

// The decisions of kf-form-kernels: `-debug-only=kf-form-kernels`.
#define DEBUG_TYPE "kf-form-kernels"

using namespace mlir;
using kfuse::analysis::Poly;

namespace kfuse::fusion {

std::string reasonCode(Reason r) {
  std::string code = kf::stringifyBoundaryReason(r).str();
  llvm::replace(code, '_', '-'); // the IR's fusion_off is the report's fusion-off
  return code;
}

std::string reasonWords(Reason r, StringRef rule) {
  switch (r) {
  case Reason::Fused: return ("fused (" + rule + ")").str();
  case Reason::Recomputed: return "producer recomputed in the consumer's kernel";
  case Reason::FusionOff: return "fusion is off (eager boundaries)";
  case Reason::RuleDisabled: return ("rule disabled: " + rule).str();
  case Reason::ProducerReduction: return "producer is a reduction";
  case Reason::DuplicateReduction: return "would duplicate a reduction";
  case Reason::ReductionMismatch: return "reductions over different dims or sizes";
  case Reason::MatmulBoundary: return "matmul boundary";
  case Reason::Transpose: return "transpose changes the iteration order";
  case Reason::Reshape: return "reshape changes the iteration space";
  case Reason::OpLimit: return "op limit reached";
  case Reason::Cycle: return "fusing would make a cycle between kernels";
  case Reason::AnchorConflict: return "a kernel holds one matmul or one family of reductions";
  case Reason::RowMismatch:
    return "an op would iterate over neither the reduction's rows nor its rows x columns";
  case Reason::OtherRow:
    return "reads the reduction's value of another row (one block owns a row)";
  }
  llvm_unreachable("unknown reason");
}

namespace {

struct Group {
  std::vector<unsigned> nodes;
  unsigned last = 0; // its node latest in program order
  std::vector<unsigned> exits; // nodes of other groups that its nodes feed
  bool hasMatmul = false;
  std::optional<unsigned> reduction; // one of its reductions
  /// The distinct iteration spaces of its pointwise nodes (one or two in
  /// practice), so a merge checks rows in time independent of group size.
  std::vector<Domain> pointwiseDomains;
};

Poly numel(const Domain &d) {
  Poly p = Poly::constant(1);
  for (const Poly &x : d)
    p = p * x;
  return p;
}

class Planner {
public:
  Planner(const KernelGraph &graph, const FusionOptions &options,
          analysis::SymbolicShapes &shapes)
      : g(graph), opt(options), shapes(shapes), succ(graph.nodes.size()) {
    for (auto [i, n] : llvm::enumerate(g.nodes)) {
      Group group;
      group.nodes = {(unsigned)i};
      group.last = i;
      group.hasMatmul = n.kind == KernelKind::Matmul;
      if (n.kind == KernelKind::Reduction)
        group.reduction = i;
      if (n.kind == KernelKind::Pointwise)
        group.pointwiseDomains = {n.domain};
      groups.push_back(group);
      groupOf.push_back(i);
    }
    for (const Edge &e : g.edges)
      succ[e.producer].push_back(e.consumer);
    for (auto [i, group] : llvm::enumerate(groups))
      group.exits = succ[i];
  }

  FusionPlan run() {
    FusionPlan plan;
    plan.decisions.resize(g.edges.size());
    // Edges are grouped by consumer. All of a consumer's edges are judged
    // before any is merged, so that a refused edge (say, from a reduction
    // the consumer reads whole) keeps the two apart even when another edge
    // would bring them together.
    for (size_t begin = 0; begin < g.edges.size();) {
      size_t end = begin;
      while (end < g.edges.size() &&
             g.edges[end].consumer == g.edges[begin].consumer)
        ++end;
      for (size_t i = begin; i < end; ++i) {
        plan.decisions[i] = localRule(g.edges[i]);
        if (plan.decisions[i].reason != Reason::Fused)
          separate.push_back({g.edges[i].producer, g.edges[i].consumer,
                              plan.decisions[i]});
      }
      for (size_t i = begin; i < end; ++i)
        if (plan.decisions[i].reason == Reason::Fused)
          plan.decisions[i] = merge(g.edges[i], plan.decisions[i]);
      LLVM_DEBUG({
        for (size_t i = begin; i < end; ++i)
          debugDecision(g.edges[i], plan.decisions[i]);
      });
      begin = end;
    }
    // A merge refused early may have happened later through another edge.
    for (auto [i, e] : llvm::enumerate(g.edges))
      if (plan.decisions[i].reason != Reason::Fused &&
          groupOf[e.producer] == groupOf[e.consumer])
        plan.decisions[i] = {Reason::Fused, "joined through another edge"};
    recompute(plan);
    std::vector<int> dense(groups.size(), -1);
    for (unsigned n = 0; n < g.nodes.size(); ++n) {
      unsigned gid = groupOf[n];
      if (dense[gid] < 0) {
        dense[gid] = plan.groups.size();
        plan.groups.push_back(groups[gid].nodes);
      }
      plan.groupOf.push_back(dense[gid]);
    }
    for (auto &members : plan.groups)
      llvm::sort(members);
    return plan;
  }

private:
  const KernelGraph &g;
  const FusionOptions &opt;
  analysis::SymbolicShapes &shapes;
  std::vector<std::vector<unsigned>> succ;
  std::vector<Group> groups;
  std::vector<unsigned> groupOf;
  unsigned lastMerged = 0; // the latest node in a group of several
  /// Producer/consumer pairs a rule refused: never in one kernel.
  struct Separation {
    unsigned producer, consumer;
    EdgeDecision decision; // the reason and, when switched off, the rule
  };
  std::vector<Separation> separate;

  EdgeDecision refuse(Reason r, StringRef rule = {}) { return {r, rule.str()}; }

  void debugDecision(const Edge &e, const EdgeDecision &d) {
    llvm::dbgs() << "[" DEBUG_TYPE "] " << g.nodes[e.producer].opName << "#"
                 << e.producer << " -> " << g.nodes[e.consumer].opName << "#"
                 << e.consumer << ": " << reasonCode(d.reason) << ": "
                 << reasonWords(d.reason, d.rule) << "\n";
  }

  EdgeDecision rule(StringRef name, bool enabled) {
    return enabled ? EdgeDecision{Reason::Fused, name.str()}
                   : refuse(Reason::RuleDisabled, name);
  }

  /// Whether a rule lets this producer kind fuse into this consumer kind.
  EdgeDecision localRule(const Edge &e) {
    const Node &p = g.nodes[e.producer], &c = g.nodes[e.consumer];
    if (!opt.enabled)
      return refuse(Reason::FusionOff);
    if (p.kind == KernelKind::Transpose || c.kind == KernelKind::Transpose)
      return refuse(Reason::Transpose);
    if (c.kind == KernelKind::Matmul)
      return refuse(Reason::MatmulBoundary); // operands come from memory
    if (e.throughReshape) {
      if (p.kind != KernelKind::Pointwise || c.kind != KernelKind::Pointwise ||
          !e.readMap.isIdentity() || numel(p.outDomain) != numel(c.domain))
        return refuse(Reason::Reshape);
      if (!opt.reshape)
        return refuse(Reason::RuleDisabled, "reshape");
    }
    switch (p.kind) {
    case KernelKind::Matmul:
      if (c.kind != KernelKind::Pointwise || c.domain != p.outDomain)
        return refuse(Reason::MatmulBoundary);
      return rule("matmul-epilogue", opt.matmulEpilogue);
    case KernelKind::Pointwise:
      if (c.kind == KernelKind::Pointwise)
        return rule("pointwise", opt.pointwise);
      return rule("reduction-prologue", opt.reductionPrologue);
    case KernelKind::Reduction:
      if (c.kind != KernelKind::Pointwise)
        return refuse(Reason::ProducerReduction);
      if (c.domain == p.outDomain)
        return rule("reduction-epilogue", opt.reductionEpilogue);
      // Read back over the rows it reduced: one block can own a row.
      if (c.domain == p.domain && p.reducesTrailingLoops) {
        // One block owns a row: the consumer must read the value of the
        // row it computes (`a - a.sum(1)` on a square matrix broadcasts the
        // sums over the other axis: row i needs row j's sum).
        if (!readsOwnRow(e))
          return refuse(Reason::OtherRow);
        return rule("row-persistent", opt.rowPersistent);
      }
      return refuse(Reason::ProducerReduction);
    case KernelKind::Transpose:
      break;
    }
    return refuse(Reason::Transpose);
  }

  /// Whether the consumer of a row reduction reads, at each of its
  /// elements, the reduction's value for that element's row: the result
  /// indexed by the consumer's outer loops in order (constant 0s and loops of
  /// static size 1, dropped from the domains too, aside).
  bool readsOwnRow(const Edge &e) {
    const Node &p = g.nodes[e.producer], &c = g.nodes[e.consumer];
    auto consumer = dyn_cast<linalg::LinalgOp>(c.op);
    if (!consumer || !e.readMap)
      return false;
    SmallVector<int64_t> sizes = consumer.getStaticLoopRanges();
    SmallVector<unsigned> outer, read;
    for (auto [i, size] : llvm::enumerate(sizes))
      if (size != 1)
        outer.push_back(i);
    for (AffineExpr r : e.readMap.getResults()) {
      if (auto cst = dyn_cast<AffineConstantExpr>(r)) {
        if (cst.getValue() != 0)
          return false;
        continue;
      }
      auto dim = dyn_cast<AffineDimExpr>(r);
      if (!dim || dim.getPosition() >= sizes.size())
        return false;
      if (sizes[dim.getPosition()] != 1)
        read.push_back(dim.getPosition());
    }
    return read.size() == p.outDomain.size() && read.size() <= outer.size() &&
           llvm::equal(read, ArrayRef<unsigned>(outer).take_front(read.size()));
  }

  bool sameReduction(unsigned a, unsigned b) {
    const Node &x = g.nodes[a], &y = g.nodes[b];
    return x.domain == y.domain && x.reducedLoops == y.reducedLoops;
  }

  /// Whether node `n` can be in one kernel with reduction `r`: the kernel
  /// gives each of r's rows to one block, so a pointwise op must iterate
  /// over r's rows x columns or over its rows. An op over another space (the
  /// rows reshaped to one dim, a smaller broadcast operand) has no block
  /// that owns its elements; with dynamic sizes the GPU mapping could not
  /// even tell (a [d0 * d1] op looked like one over d0 rows, and most of
  /// its output was never written).
  bool fitsRows(const Domain &domain, unsigned r) {
    const Node &red = g.nodes[r];
    return domain == red.domain || domain == red.outDomain;
  }
  bool fitsRows(const Group &group, unsigned r) {
    return llvm::all_of(group.pointwiseDomains,
                        [&](const Domain &d) { return fitsRows(d, r); });
  }

  /// Whether a path leaves groups a/b and comes back into them.
  bool makesCycle(unsigned a, unsigned b) {
    auto inside = [&](unsigned n) {
      return groupOf[n] == a || groupOf[n] == b;
    };
    // Nodes are in program order and every edge goes forward. A node alone
    // in its group and later than every node of a, b and every merged group
    // reaches only such nodes: no path back through it. Not following them
    // keeps a chain's merges from walking the rest of the function each
    // (quadratic: 10,000 ops took seconds).
    unsigned limit = std::max({groups[a].last, groups[b].last, lastMerged});
    auto beyond = [&](unsigned n) {
      return n > limit && groups[groupOf[n]].nodes.size() == 1;
    };
    SmallVector<unsigned> work;
    llvm::DenseSet<unsigned> seenGroups;
    for (unsigned gid : {a, b})
      for (unsigned s : groups[gid].exits)
        if (!inside(s) && !beyond(s))
          work.push_back(s);
    while (!work.empty()) {
      unsigned n = work.pop_back_val();
      if (inside(n))
        return true;
      if (beyond(n))
        continue;
      if (!seenGroups.insert(groupOf[n]).second)
        continue;
      for (unsigned s : groups[groupOf[n]].exits)
        work.push_back(s);
    }
    return false;
  }

  /// Fused, or why groups a and b cannot be one kernel (with the rule that
  /// keeps them apart when a switched-off rule does).
  EdgeDecision canMerge(unsigned a, unsigned b) {
    const Group &x = groups[a], &y = groups[b];
    if (opt.maxOps && x.nodes.size() + y.nodes.size() > opt.maxOps)
      return refuse(Reason::OpLimit);
    if (x.hasMatmul && y.hasMatmul)
      return refuse(Reason::MatmulBoundary);
    if ((x.hasMatmul && y.reduction) || (y.hasMatmul && x.reduction))
      return refuse(Reason::AnchorConflict);
    if (x.reduction && y.reduction && !sameReduction(*x.reduction, *y.reduction))
      return refuse(Reason::ReductionMismatch);
    if (std::optional<unsigned> r = x.reduction ? x.reduction : y.reduction)
      if (!fitsRows(x, *r) || !fitsRows(y, *r))
        return refuse(Reason::RowMismatch);
    for (const Separation &sep : separate) {
      unsigned gp = groupOf[sep.producer], gc = groupOf[sep.consumer];
      if ((gp == a && gc == b) || (gp == b && gc == a))
        return sep.decision;
    }
    if (makesCycle(a, b))
      return refuse(Reason::Cycle);
    return refuse(Reason::Fused);
  }

  void join(unsigned a, unsigned b) {
    Group &x = groups[a], &y = groups[b];
    for (unsigned n : y.nodes)
      groupOf[n] = a;
    x.nodes.insert(x.nodes.end(), y.nodes.begin(), y.nodes.end());
    x.last = std::max(x.last, y.last);
    x.exits.insert(x.exits.end(), y.exits.begin(), y.exits.end());
    llvm::erase_if(x.exits, [&](unsigned s) { return groupOf[s] == a; });
    lastMerged = std::max(lastMerged, x.last);
    x.hasMatmul |= y.hasMatmul;
    for (Domain &d : y.pointwiseDomains)
      if (!llvm::is_contained(x.pointwiseDomains, d))
        x.pointwiseDomains.push_back(std::move(d));
    if (!x.reduction)
      x.reduction = y.reduction;
    y = Group();
  }

  /// Merges the groups of an edge that a rule allows, if they are
  /// compatible.
  EdgeDecision merge(const Edge &e, EdgeDecision local) {
    unsigned a = groupOf[e.producer], b = groupOf[e.consumer];
    if (a == b)
      return local;
    EdgeDecision r = canMerge(a, b);
    if (r.reason == Reason::Fused) {
      join(a, b);
      return local;
    }
    // The rule allowed it, but the producer's kernel cannot take the
    // consumer: fusing would need the reduction (or matmul) twice.
    const Node &p = g.nodes[e.producer];
    bool shared = groups[a].nodes.size() > 1;
    if (shared && (p.kind == KernelKind::Reduction || p.kind == KernelKind::Matmul))
      return refuse(Reason::DuplicateReduction);
    return r;
  }

  /// Bytes at typical sizes (every dynamic dim 1024), for comparisons only.
  int64_t typicalBytes(Value v) {
    std::vector<std::optional<int64_t>> symbols(shapes.symbolMeanings().size(),
                                                1024);
    return shapes.bytes(v).evaluate(symbols).value_or(0);
  }

  /// Recomputes a single elementwise producer in a consumer's kernel when the
  /// consumer would rather read the producer's inputs than its result.
  void recompute(FusionPlan &plan) {
    if (!opt.enabled || !opt.recompute)
      return;
    for (unsigned i = 0; i < g.edges.size(); ++i) {
      const Edge &e = g.edges[i]; // not a structured binding: lambdas use it
      const Node &p = g.nodes[e.producer];
      unsigned cg = groupOf[e.consumer];
      if (plan.decisions[i].reason == Reason::Fused ||
          plan.decisions[i].reason == Reason::FusionOff ||
          p.kind != KernelKind::Pointwise || e.throughReshape ||
          localRule(e).reason != Reason::Fused ||
          (opt.maxOps && groups[cg].nodes.size() + 1 > opt.maxOps) ||
          (groups[cg].reduction && !fitsRows(p.domain, *groups[cg].reduction)))
        continue;
      // The clone reads the producer's inputs; it must not need a value
      // that only the producer's own kernel has.
      auto inputs = cast<linalg::LinalgOp>(p.op).getDpsInputs();
      bool inputsAvailable = llvm::all_of(inputs, [&](Value v) {
        bool reshaped = false;
        auto src = g.producerOf(v, reshaped);
        return !src || groupOf[*src] != groupOf[e.producer];
      });
      if (!inputsAvailable)
        continue;
      // What the consumer's kernel reads already costs nothing more.
      llvm::DenseSet<Value> alreadyRead;
      for (unsigned n : groups[cg].nodes)
        if (n != e.consumer)
          for (Value v : cast<linalg::LinalgOp>(g.nodes[n].op).getDpsInputs())
            alreadyRead.insert(v);
      int64_t dup = 0;
      for (Value v : inputs)
        if (!alreadyRead.contains(v))
          dup += typicalBytes(v);
      // Keeping the boundary costs the consumer kernel's read of the result
      // (unless another of its ops reads it anyway), and the producer's
      // write when this consumer is its only reader outside its kernel.
      Value result = p.op->getResult(0);
      int64_t keep = alreadyRead.contains(result) ? 0 : typicalBytes(result);
      bool onlyReader = llvm::all_of(result.getUsers(), [&](Operation *user) {
        auto it = g.nodeOf.find(user);
        return it != g.nodeOf.end() &&
               (it->second == e.consumer ||
                groupOf[it->second] == groupOf[e.producer]);
      });
      if (onlyReader)
        keep += typicalBytes(result);
      LLVM_DEBUG(llvm::dbgs()
                 << "[" DEBUG_TYPE "] recompute " << p.opName << "#"
                 << e.producer << " in the kernel of " << e.consumer
                 << "? reads " << dup << " bytes more, saves " << keep
                 << (dup < keep ? ": yes\n" : ": no\n"));
      if (dup < keep) {
        plan.decisions[i] = {Reason::Recomputed, "recompute"};
        plan.recomputed.push_back(i);
      }
    }
  }
};

} // namespace

FusionPlan planFusion(const KernelGraph &graph, const FusionOptions &options,
                      analysis::SymbolicShapes &shapes) {
  return Planner(graph, options, shapes).run();
}

} // namespace kfuse::fusion
