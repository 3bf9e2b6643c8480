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
#include "passes/fusion/Planner.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Debug.h"

// The decisions of kf-form-kernels: `-debug-only=kf-form-kernels`.
#define DEBUG_TYPE "kf-form-kernels"

using namespace mlir;
using kfuse::analysis::Poly;

namespace kfuse::fusion {

namespace {

Poly numel(const Domain &d) {
  Poly p = Poly::constant(1);
  for (const Poly &x : d)
    p = p * x;
  return p;
}

/// Whether `map` reads dims in loop order, some perhaps skipped (identity
/// or a broadcast): what the row mapping reads of a value its kernel
/// computes, one row at a time.
bool inOrder(AffineMap map) {
  int64_t last = -1;
  for (AffineExpr r : map.getResults()) {
    auto d = dyn_cast<AffineDimExpr>(r);
    if (!d || (int64_t)d.getPosition() <= last)
      return false;
    last = d.getPosition();
  }
  return true;
}

} // namespace

Planner::Planner(const KernelGraph &graph, const FusionOptions &options,
                 analysis::SymbolicShapes &shapes, const Isolation &isolated)
    : g(graph), opt(options), shapes(shapes), isolated(isolated),
      succ(graph.nodes.size()) {
  findSmallReductions();
  for (unsigned i = 0; i < g.nodes.size(); ++i)
    kinds.push_back(kindOf(i));
  for (unsigned i = 0; i < g.nodes.size(); ++i) {
    Group group;
    group.nodes = {i};
    group.first = group.last = i;
    if (kinds[i] == KernelKind::Matmul)
      group.matmul = i;
    if (kinds[i] == KernelKind::Reduction)
      group.reduction = i;
    if (kinds[i] == KernelKind::Pointwise)
      group.pointwiseDomains = {domainOf(i)};
    group.hasSmallReduction = isSmallReduction(i);
    groups.push_back(group);
    groupOf.push_back(i);
  }
  inEdges.resize(g.nodes.size());
  for (auto [i, e] : llvm::enumerate(g.edges)) {
    succ[e.producer].push_back(e.consumer);
    inEdges[e.consumer].push_back(i);
  }
  for (auto [i, group] : llvm::enumerate(groups))
    group.exits = succ[i];
}

/// How a node fuses: a view's copy as the elementwise op it is, a small
/// reduction as elementwise code (a thread combines its few elements).
KernelKind Planner::kindOf(unsigned n) const {
  KernelKind kind = g.nodes[n].kind;
  if (kind == KernelKind::Transpose || isSmallReduction(n))
    return KernelKind::Pointwise;
  return kind;
}

/// The space a node iterates over as fusion sees it: a small reduction
/// runs a thread per result element.
const Domain &Planner::domainOf(unsigned n) const {
  return isSmallReduction(n) ? g.nodes[n].outDomain : g.nodes[n].domain;
}

FusionPlan Planner::run() {
  FusionPlan plan;
  plan.decisions.resize(g.edges.size());
  decided.assign(g.edges.size(), false);
  formAttention(plan);
  // Edges are grouped by consumer. All of a consumer's edges are judged
  // before any is merged, so that a refused edge (say, from a reduction the
  // consumer reads whole) keeps the two apart even when another edge would
  // bring them together.
  for (size_t begin = 0; begin < g.edges.size();) {
    size_t end = begin;
    while (end < g.edges.size() &&
           g.edges[end].consumer == g.edges[begin].consumer)
      ++end;
    for (size_t i = begin; i < end; ++i) {
      if (decided[i])
        continue;
      plan.decisions[i] = localRule(g.edges[i]);
      if (plan.decisions[i].reason != Reason::Fused)
        separate.push_back(
            {g.edges[i].producer, g.edges[i].consumer, plan.decisions[i]});
    }
    for (size_t i = begin; i < end; ++i)
      if (!decided[i] && plan.decisions[i].reason == Reason::Fused)
        plan.decisions[i] = merge(g.edges[i], plan.decisions[i]);
    LLVM_DEBUG({
      for (size_t i = begin; i < end; ++i)
        debugDecision(g.edges[i], plan.decisions[i]);
    });
    begin = end;
  }
  fuseSiblings(plan);
  fuseAcrossAxes(plan);
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
      // A group's kind: its matmul's or its reductions', else pointwise;
      // the copy of a transposed view is a transpose kernel.
      const Group &group = groups[gid];
      KernelKind kind = KernelKind::Pointwise;
      if (group.attention)
        kind = KernelKind::Attention;
      else if (group.matmul)
        kind = KernelKind::Matmul;
      else if (group.reduction || group.hasSmallReduction)
        kind = KernelKind::Reduction;
      else if (llvm::all_of(group.nodes,
                            [&](unsigned m) { return g.nodes[m].view; }) &&
               llvm::any_of(group.nodes, [&](unsigned m) {
                 return g.nodes[m].opName == "transpose";
               }))
        kind = KernelKind::Transpose;
      plan.groupKinds.push_back(kind);
      plan.multiReduction.push_back(group.multiReduction);
    }
    plan.groupOf.push_back(dense[gid]);
  }
  for (auto &members : plan.groups)
    llvm::sort(members);
  return plan;
}

void Planner::debugDecision(const Edge &e, const EdgeDecision &d) const {
  llvm::dbgs() << "[" DEBUG_TYPE "] " << g.nodes[e.producer].opName << "#"
               << e.producer << " -> " << g.nodes[e.consumer].opName << "#"
               << e.consumer << ": " << reasonCode(d.reason) << ": "
               << reasonWords(d.reason, d.rule) << "\n";
}

EdgeDecision Planner::rule(FusionRule r) const {
  return opt.allows(r) ? EdgeDecision{Reason::Fused, ruleName(r).str()}
                       : refuse(Reason::RuleDisabled, ruleName(r));
}

/// Whether merging kernel bodies will compute the producer inside its
/// consumer (upstream elementwise fusion): an elementwise generic read
/// directly by that one op and by nothing else. Then the consumer may read
/// it at any element (through a view, a broadcast): each is computed where
/// it is read. Otherwise the producer stays an op of its own in the kernel,
/// and a thread can only pass its consumer the element it computed.
bool Planner::inlinedInConsumer(const Edge &e) const {
  const Node &p = g.nodes[e.producer];
  return e.direct && p.kind != KernelKind::Reduction &&
         p.kind != KernelKind::Matmul && p.op->hasOneUse();
}

/// Whether a rule lets this producer kind fuse into this consumer kind.
EdgeDecision Planner::localRule(const Edge &e) {
  const Node &p = g.nodes[e.producer], &c = g.nodes[e.consumer];
  KernelKind pk = kinds[e.producer], ck = kinds[e.consumer];
  if (!opt.enabled)
    return refuse(Reason::FusionOff);
  if (e.gathered)
    return refuse(Reason::Gathered);
  for (unsigned n : {e.producer, e.consumer})
    if (isolated.alone[n])
      return refuse(Reason::Unmappable, isolated.why[n]);
  if (p.materializes)
    return refuse(Reason::Materialize);
  if (ck == KernelKind::Matmul)
    return refuse(Reason::MatmulBoundary); // operands come from memory
  if (e.throughReshape) {
    if (pk != KernelKind::Pointwise || ck != KernelKind::Pointwise ||
        !e.readMap.isIdentity() || numel(p.outDomain) != numel(domainOf(e.consumer)))
      return refuse(Reason::Reshape);
    if (!opt.reshape)
      return refuse(Reason::RuleDisabled, ruleName(FusionRule::Reshape));
  }
  // A small reduction runs a thread per result: its producers must be
  // computed in it (at each element it combines), and its readers read the
  // result at that thread's element.
  if (isSmallReduction(e.producer)) {
    // Read in place by a row reduction over its results (the sums of a
    // neighbour distance, then their max): formation unrolls it into the
    // reduction's prologue (unrollPrologueReductions).
    if (ck == KernelKind::Reduction && takesSmallPrologues(e.consumer) &&
        *p.reducedElements > 1 && e.readMap.isIdentity() &&
        c.domain == p.outDomain)
      return rule(FusionRule::ReductionPrologue);
    if (ck != KernelKind::Pointwise || isSmallReduction(e.consumer) ||
        domainOf(e.consumer) != p.outDomain)
      return refuse(Reason::ProducerReduction);
    if (!e.readMap.isIdentity())
      return refuse(Reason::NotInPlace);
    return rule(FusionRule::ReductionEpilogue);
  }
  if (isSmallReduction(e.consumer)) {
    if (pk != KernelKind::Pointwise)
      return refuse(Reason::ProducerReduction);
    if (!inlinedInConsumer(e))
      return refuse(Reason::NotInPlace);
    return rule(FusionRule::ReductionPrologue);
  }
  switch (pk) {
  case KernelKind::Matmul:
    if (ck != KernelKind::Pointwise || domainOf(e.consumer) != p.outDomain)
      return refuse(Reason::MatmulBoundary);
    return rule(FusionRule::MatmulEpilogue);
  case KernelKind::Pointwise:
    // Read at other elements (a broadcast, a view, a small reduction's
    // elements), the producer must be computed inside its consumer.
    if (!inlinedInConsumer(e)) {
      // In order (the same element, the same linear element through a
      // reshape, or a broadcast over rows that a row kernel serves) is
      // left to the merge and the mappings' check; a permuted, strided or
      // constant read cannot be served by a kernel that writes the
      // producer's result once.
      if (!inOrder(e.readMap))
        return refuse(Reason::NotInPlace);
    }
    if (ck == KernelKind::Pointwise)
      return rule(FusionRule::Pointwise);
    return rule(FusionRule::ReductionPrologue);
  case KernelKind::Reduction:
    if (ck == KernelKind::Reduction) {
      if (chains(e.producer, e.consumer))
        return rule(FusionRule::ReductionChain);
      return refuse(Reason::ProducerReduction);
    }
    // Over its rows, or over them in another order reading each row's
    // value once (`x.sum(2).t().exp()`: the row's block computes it).
    if (c.domain == p.outDomain || readsRowsPermuted(e))
      return rule(FusionRule::ReductionEpilogue);
    // Read back over the rows it reduced (the trailing dims' or others':
    // `x - x.mean(0)`): one block can own a row. A full reduction has one
    // row: read back, every block would wait for it.
    if (c.domain == p.domain && !p.outDomain.empty()) {
      // The consumer must read the value of the row it computes (`a -
      // a.sum(1)` on a square matrix broadcasts the sums over the other
      // axis: row i needs row j's sum).
      if (!readsOwnRow(e))
        return refuse(Reason::OtherRow);
      return rule(FusionRule::RowPersistent);
    }
    return refuse(Reason::ProducerReduction);
  case KernelKind::Transpose:
    break; // fuses as Pointwise (kindOf)
  case KernelKind::Attention:
    break; // a kernel's kind, no node's (formAttention)
  }
  llvm_unreachable("a view fuses as an elementwise op");
}

/// Whether a path leaves groups a/b and comes back into them.
bool Planner::makesCycle(unsigned a, unsigned b) {
  auto inside = [&](unsigned n) { return groupOf[n] == a || groupOf[n] == b; };
  // Nodes are in program order and every edge goes forward. A node alone in
  // its group and later than every node of a, b and every merged group
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
EdgeDecision Planner::canMerge(unsigned a, unsigned b) {
  const Group &x = groups[a], &y = groups[b];
  if (opt.maxOps && x.nodes.size() + y.nodes.size() > opt.maxOps)
    return refuse(Reason::OpLimit);
  // An attention kernel computes the attention alone (its mapping runs
  // nothing else).
  if (x.attention || y.attention)
    return refuse(Reason::MatmulBoundary);
  // Nor does a multi-reduction's (its rows' and columns' reductions and
  // the ops over their results).
  if (x.multiReduction || y.multiReduction)
    return refuse(Reason::ReductionMismatch);
  // Two matmuls share a kernel only as a chain of sums (`a @ b + c @ d`:
  // one accumulator takes both); the edge is then fused by that rule.
  bool chain = x.matmul && y.matmul;
  if (chain && !summedMatmuls(x, y))
    return refuse(Reason::MatmulBoundary);
  if (chain && !opt.allows(FusionRule::MatmulChain))
    return refuse(Reason::RuleDisabled, ruleName(FusionRule::MatmulChain));
  bool anyReduction = x.reduction || y.reduction;
  if ((x.matmul || y.matmul) && (anyReduction || x.hasSmallReduction || y.hasSmallReduction))
    return refuse(Reason::AnchorConflict);
  if (std::optional<unsigned> m = x.matmul ? x.matmul : y.matmul) {
    // The matmul mapping runs elementwise ops over its result only.
    for (const Group *group : {&x, &y})
      for (const Domain &d : group->pointwiseDomains)
        if (d != g.nodes[*m].outDomain)
          return refuse(Reason::MatmulBoundary);
  }
  std::optional<unsigned> rows, full;
  EdgeDecision fit = reductionsFit(x, y, rows, full);
  if (fit.reason != Reason::Fused)
    return fit;
  // Small reductions beside a row reduction only as its prologue
  // (SmallReductions.cpp); their producers iterate over more than the rows.
  SmallVector<Domain> prologueDomains;
  EdgeDecision small = smallReductionsFit(x, y, rows, full, prologueDomains);
  if (small.reason != Reason::Fused)
    return small;
  for (const Group *group : {&x, &y})
    for (const Domain &d : group->pointwiseDomains)
      if (!fitsRows(d, rows, full) && !llvm::is_contained(prologueDomains, d))
        return refuse(Reason::RowMismatch);
  checkedRows.reset();
  if (rows && !readsOnlyOwnRows(a, b, *rows, full))
    return refuse(Reason::OtherRow);
  bool transposed = rows && transposedRows;
  if (transposed && !opt.allows(FusionRule::TransposedEpilogue))
    return refuse(Reason::RuleDisabled, ruleName(FusionRule::TransposedEpilogue));
  // (A row reduction's prologue computes each small reduction's value at
  // the element the row reads: the rows' check above covered it.)
  if ((x.hasSmallReduction || y.hasSmallReduction) && prologueDomains.empty()) {
    // Each family of small reductions, once (a few per kernel).
    SmallVector<unsigned> families;
    for (const Group *group : {&x, &y})
      for (unsigned n : group->nodes)
        if (isSmallReduction(n) &&
            llvm::none_of(families,
                          [&](unsigned f) { return sameReduction(f, n); }))
          families.push_back(n);
    std::optional<CheckedRows> main = std::move(checkedRows);
    for (unsigned f : families)
      if (!readsOnlyOwnRows(a, b, f, std::nullopt))
        return refuse(Reason::OtherRow);
    checkedRows = std::move(main); // join keeps the rows family's
  }
  for (const Separation &sep : separate) {
    unsigned gp = groupOf[sep.producer], gc = groupOf[sep.consumer];
    if ((gp == a && gc == b) || (gp == b && gc == a))
      return sep.decision;
  }
  if (makesCycle(a, b))
    return refuse(Reason::Cycle);
  if (chain)
    return rule(FusionRule::MatmulChain);
  return transposed ? rule(FusionRule::TransposedEpilogue) : refuse(Reason::Fused);
}

void Planner::join(unsigned a, unsigned b) {
  Group &x = groups[a], &y = groups[b];
  std::optional<unsigned> rows, full;
  (void)reductionsFit(x, y, rows, full); // checked by canMerge
  for (unsigned n : y.nodes)
    groupOf[n] = a;
  x.nodes.insert(x.nodes.end(), y.nodes.begin(), y.nodes.end());
  x.first = std::min(x.first, y.first);
  x.last = std::max(x.last, y.last);
  // The rows' check of this merge: the row dims of the checked nodes, over
  // those of the group it extended.
  std::optional<RowDims> known;
  if (checkedRows && checkedRows->a == a && checkedRows->b == b && rows &&
      checkedRows->found.rows == *rows && checkedRows->found.full == full) {
    if (checkedRows->base) {
      known = std::move(groups[*checkedRows->base].rowDims);
      for (auto &[n, dims] : checkedRows->found.dims)
        known->dims[n] = std::move(dims);
    } else {
      known = std::move(checkedRows->found);
    }
  }
  checkedRows.reset();
  x.rowDims = std::move(known);
  x.exits.insert(x.exits.end(), y.exits.begin(), y.exits.end());
  llvm::erase_if(x.exits, [&](unsigned s) { return groupOf[s] == a; });
  lastMerged = std::max(lastMerged, x.last);
  if (!x.matmul)
    x.matmul = y.matmul;
  x.reduction = rows;
  x.finalReduction = full;
  x.hasSmallReduction |= y.hasSmallReduction;
  for (Domain &d : y.pointwiseDomains)
    if (!llvm::is_contained(x.pointwiseDomains, d))
      x.pointwiseDomains.push_back(std::move(d));
  y = Group();
}

/// Merges the groups of an edge that a rule allows, if they are compatible.
EdgeDecision Planner::merge(const Edge &e, EdgeDecision local) {
  unsigned a = groupOf[e.producer], b = groupOf[e.consumer];
  if (a == b)
    return local;
  EdgeDecision r = canMerge(a, b);
  if (r.reason == Reason::Fused) {
    join(a, b);
    return r.rule.empty() ? local : r; // a merge's own rule (matmul-chain, transposed-epilogue)
  }
  // The rule allowed it, but the producer's kernel cannot take the
  // consumer: fusing would need the reduction (or matmul) twice.
  const Node &p = g.nodes[e.producer];
  bool shared = groups[a].nodes.size() > 1;
  if (shared && (p.kind == KernelKind::Reduction || p.kind == KernelKind::Matmul))
    return refuse(Reason::DuplicateReduction);
  return r;
}

FusionPlan planFusion(const KernelGraph &graph, const FusionOptions &options,
                      analysis::SymbolicShapes &shapes,
                      const Isolation &isolated) {
  return Planner(graph, options, shapes, isolated).run();
}

} // namespace kfuse::fusion
