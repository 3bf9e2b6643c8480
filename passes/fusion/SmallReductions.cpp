//===- SmallReductions.cpp - reductions of a few elements, a thread each --===//
//
// A static reduction of at most kSmallReductionElements elements a result
// fuses as elementwise code (a thread combines its few elements, the flat
// mapping unrolls it): its producers and readers fuse as elementwise ops.
// Read in place by a row reduction over its results, it is that
// reduction's prologue (the sums over the coordinates of all pairs'
// squared distances, then each point's max): formation unrolls it into
// the row reduction's body (unrollPrologueReductions, KernelBodies.cpp).
//
//===----------------------------------------------------------------------===//
#include "passes/fusion/Planner.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace kfuse::fusion {

/// A reduction of at most kSmallReductionElements static elements whose
/// result no op reads back over the reduced elements and whose elementwise
/// producers it can compute itself (else a row kernel keeps the row:
/// softmax over 8 columns stays one kernel).
bool Planner::isSmallReduction(unsigned n) const { return small[n]; }

/// Whether reduction `n` can take small reductions as its prologue: a row
/// reduction (rows left: the ops after a full one run on its one value)
/// of more than a small reduction's elements a row (what formation tells
/// the two apart by, unrollPrologueReductions).
bool Planner::takesSmallPrologues(unsigned n) const {
  const Node &node = g.nodes[n];
  return node.kind == KernelKind::Reduction && !node.outDomain.empty() &&
         (!node.reducedElements || *node.reducedElements > kSmallReductionElements);
}

void Planner::findSmallReductions() {
  small.assign(g.nodes.size(), false);
  for (auto [n, node] : llvm::enumerate(g.nodes))
    small[n] = opt.enabled && opt.smallReduction && !isolated.alone[n] &&
               node.kind == KernelKind::Reduction && node.reducedElements &&
               *node.reducedElements <= kSmallReductionElements;
  for (const Edge &e : g.edges) {
    if (small[e.producer] &&
        g.nodes[e.consumer].domain != g.nodes[e.producer].outDomain)
      small[e.producer] = false;
    // An elementwise producer it cannot compute in itself (read elsewhere
    // too, as softmax's exp) is better in a row kernel with it.
    if (small[e.consumer] && g.nodes[e.producer].kind == KernelKind::Pointwise &&
        !inlinedInConsumer(e))
      small[e.consumer] = false;
  }
  // Nor one whose elementwise producers read another reduction (a
  // variance's sum of squares after its mean): the row kernel of that
  // reduction takes it too.
  std::vector<SmallVector<unsigned>> producers(g.nodes.size());
  for (const Edge &e : g.edges)
    producers[e.consumer].push_back(e.producer);
  for (unsigned n = 0; n < g.nodes.size(); ++n) {
    if (!small[n])
      continue;
    SmallVector<unsigned> work(producers[n]);
    llvm::DenseSet<unsigned> seen;
    while (!work.empty() && small[n] && seen.size() < 64) {
      unsigned p = work.pop_back_val();
      if (!seen.insert(p).second)
        continue;
      if (g.nodes[p].kind == KernelKind::Reduction)
        small[n] = false;
      else if (g.nodes[p].kind != KernelKind::Matmul)
        work.append(producers[p]);
    }
  }
}

/// Whether the small reductions of groups `x` and `y` can share a kernel
/// with the row reduction `rows` (and the full reduction `full`): each as
/// its prologue (over its rows x columns, no chain after, a row reduction
/// that takes them), and each op over a small reduction's own space (rows
/// x columns x what it reduces) read only by one op of the two groups, a
/// small reduction or another such op, so that merging computes it inside
/// the small reduction, which formation then unrolls. `prologueDomains`:
/// those spaces, which the rows' own check must let pass.
EdgeDecision Planner::smallReductionsFit(const Group &x, const Group &y,
                                         std::optional<unsigned> rows,
                                         std::optional<unsigned> full,
                                         SmallVectorImpl<Domain> &prologueDomains) const {
  bool anyReduction = x.reduction || y.reduction;
  if (!(x.hasSmallReduction || y.hasSmallReduction) || !anyReduction)
    return refuse(Reason::Fused);
  for (const Group *group : {&x, &y})
    for (unsigned n : group->nodes) {
      if (!isSmallReduction(n))
        continue;
      // (Over unit dims only it reduces nothing: its producers keep their
      // unit dims, which the row mappings do not follow.)
      if (!rows || full || !takesSmallPrologues(*rows) ||
          g.nodes[n].outDomain != g.nodes[*rows].domain || *g.nodes[n].reducedElements < 2)
        return refuse(Reason::AnchorConflict);
      if (!llvm::is_contained(prologueDomains, g.nodes[n].domain))
        prologueDomains.push_back(g.nodes[n].domain);
    }
  auto inGroups = [&](unsigned n) {
    return llvm::is_contained(x.nodes, n) || llvm::is_contained(y.nodes, n);
  };
  for (const Group *group : {&x, &y})
    for (unsigned n : group->nodes) {
      if (isSmallReduction(n) || kinds[n] != KernelKind::Pointwise ||
          fitsRows(domainOf(n), rows, full) ||
          !llvm::is_contained(prologueDomains, domainOf(n)))
        continue;
      llvm::SmallPtrSet<Operation *, 2> readers;
      for (Operation *user : g.nodes[n].op->getUsers()) {
        auto it = g.nodeOf.find(user);
        if (it == g.nodeOf.end() || !inGroups(it->second) ||
            !(isSmallReduction(it->second) || domainOf(it->second) == domainOf(n)))
          return refuse(Reason::RowMismatch);
        readers.insert(user);
      }
      if (readers.size() != 1)
        return refuse(Reason::RowMismatch);
    }
  return refuse(Reason::Fused);
}

} // namespace kfuse::fusion
