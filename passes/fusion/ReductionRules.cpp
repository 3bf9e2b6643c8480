//===- ReductionRules.cpp - what may share a kernel with a reduction ------===//
//
// The row mapping gives each row of a reduction to one block: the ops of
// its kernel must iterate over those rows (or rows x columns), read the
// reduction's value of their own row, and the kernel's reductions be one
// family, or a family and a full reduction of its rows' results (a chain,
// combined by the last block to finish).
//
//===----------------------------------------------------------------------===//
#include "passes/fusion/Planner.h"

using namespace mlir;

namespace kfuse::fusion {

/// Whether the consumer of a row reduction reads, at each of its elements,
/// the reduction's value for that element's row: the result indexed by the
/// consumer's loops that are the reduction's parallel loops, in order
/// (both iterate over the same space; constant 0s and loops of static size
/// 1, dropped from the domains too, aside). `a - a.sum(1)` on a square
/// matrix reads row j's sum at row i: no.
bool Planner::readsOwnRow(const Edge &e) const {
  const Node &p = g.nodes[e.producer], &c = g.nodes[e.consumer];
  auto consumer = dyn_cast<linalg::LinalgOp>(c.op);
  if (!consumer || !e.readMap)
    return false;
  // The rows' loops, counted among the loops that are not static 1s.
  auto nonUnitIndex = [](ArrayRef<int64_t> sizes, unsigned loop) {
    return (unsigned)llvm::count_if(sizes.take_front(loop),
                                    [](int64_t s) { return s != 1; });
  };
  SmallVector<unsigned> rows;
  for (auto [i, size] : llvm::enumerate(p.loopSizes))
    if (size != 1 && !llvm::is_contained(p.reducedLoops, (int64_t)i))
      rows.push_back(nonUnitIndex(p.loopSizes, i));
  SmallVector<int64_t> sizes = consumer.getStaticLoopRanges();
  SmallVector<unsigned> read;
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
      read.push_back(nonUnitIndex(sizes, dim.getPosition()));
  }
  return read.size() == p.outDomain.size() && read == rows;
}

bool Planner::sameReduction(unsigned a, unsigned b) const {
  const Node &x = g.nodes[a], &y = g.nodes[b];
  return x.domain == y.domain && x.reducedLoops == y.reducedLoops &&
         x.loopSizes == y.loopSizes;
}

/// Whether the full reduction `full` reduces the rows' results of the row
/// reduction `rows`: one kernel computes the rows, a block each, and the
/// last block to finish combines them (`x.sum(1).sum(0)`).
bool Planner::chains(unsigned rows, unsigned full) const {
  const Node &r = g.nodes[rows], &f = g.nodes[full];
  return r.reducesTrailingLoops && !r.outDomain.empty() &&
         f.outDomain.empty() && f.domain == r.outDomain;
}

/// Whether the reductions of groups x and y can share a kernel: one family
/// (same sizes, same reduced loops), or a family over rows and a full
/// reduction of their results (a chain). Sets the two.
EdgeDecision Planner::reductionsFit(const Group &x, const Group &y,
                                   std::optional<unsigned> &rows,
                                   std::optional<unsigned> &full) const {
  SmallVector<unsigned> families;
  for (std::optional<unsigned> r :
       {x.reduction, x.finalReduction, y.reduction, y.finalReduction})
    if (r && llvm::none_of(families,
                           [&](unsigned f) { return sameReduction(f, *r); }))
      families.push_back(*r);
  rows = full = std::nullopt;
  if (families.size() <= 1) {
    if (!families.empty())
      rows = families[0];
    return refuse(Reason::Fused);
  }
  if (families.size() == 2) {
    for (auto [a, b] : {std::pair{families[0], families[1]},
                        std::pair{families[1], families[0]}})
      if (chains(a, b)) {
        if (!opt.reductionChain)
          return refuse(Reason::RuleDisabled, "reduction-chain");
        rows = a;
        full = b;
        return refuse(Reason::Fused);
      }
  }
  return refuse(Reason::ReductionMismatch);
}

/// Whether an op over `domain` can be in one kernel with the reduction
/// `rows` (and the full reduction `full` of its results): the kernel gives
/// each row to one block, so a pointwise op must iterate over the rows x
/// columns or over the rows (or, after a chain's full reduction, over its
/// scalar). An op over another space (the rows reshaped to one dim, a
/// smaller broadcast operand) has no block that owns its elements; with
/// dynamic sizes the GPU mapping could not even tell (a [d0 * d1] op looked
/// like one over d0 rows, and most of its output was never written).
bool Planner::fitsRows(const Domain &domain, std::optional<unsigned> rows,
                       std::optional<unsigned> full) const {
  if (!rows)
    return true;
  const Node &red = g.nodes[*rows];
  return domain == red.domain || domain == red.outDomain ||
         (full && domain == g.nodes[*full].outDomain);
}

} // namespace kfuse::fusion
