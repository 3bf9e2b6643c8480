//===- ReductionRules.cpp - what may share a kernel with a reduction ------===//
//
// The row mapping gives each row of a reduction to one block: the ops of
// its kernel must iterate over those rows (or rows x columns), read the
// reduction's value of their own row, and the kernel's reductions be one
// family, or a family and a full reduction of its rows' results (a chain,
// combined by the last block to finish). Small reductions: SmallReductions.cpp.
//
//===----------------------------------------------------------------------===//
#include "passes/fusion/Planner.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace kfuse::fusion {

namespace {

/// The loop's position among the loops that are not static 1s.
unsigned nonUnitIndex(ArrayRef<int64_t> sizes, unsigned loop) {
  return (unsigned)llvm::count_if(sizes.take_front(loop),
                                  [](int64_t s) { return s != 1; });
}

/// For each dim of the value `read` that is not a static 1, the position
/// (among the loops that are not static 1s) of the loop that indexes it;
/// nullopt where another expression does (a constant, a sum of dims).
std::optional<SmallVector<unsigned>>
nonUnitReads(AffineMap map, ArrayRef<int64_t> loopSizes, Value read) {
  auto shape = cast<RankedTensorType>(read.getType()).getShape();
  if (map.getNumResults() != shape.size())
    return std::nullopt;
  SmallVector<unsigned> loops;
  for (auto [expr, size] : llvm::zip(map.getResults(), shape)) {
    if (size == 1)
      continue;
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || dim.getPosition() >= loopSizes.size() ||
        loopSizes[dim.getPosition()] == 1)
      return std::nullopt;
    loops.push_back(nonUnitIndex(loopSizes, dim.getPosition()));
  }
  return loops;
}

} // namespace

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

/// For a pointwise consumer of a row reduction that reads every one of its
/// result's non-unit dims with a distinct loop and iterates over nothing
/// else (`x.sum(2).t()`, read at [j, i]): for each result dim, the loop
/// (among those not static 1s) that reads it. Nullopt otherwise.
std::optional<SmallVector<unsigned>> Planner::permutedRead(const Edge &e) const {
  const Node &p = g.nodes[e.producer], &c = g.nodes[e.consumer];
  if (c.kind != KernelKind::Pointwise || !e.readMap || e.throughReshape || e.gathered ||
      p.outDomain.empty() || c.domain.size() != p.outDomain.size())
    return std::nullopt;
  std::optional<SmallVector<unsigned>> loops = nonUnitReads(e.readMap, c.loopSizes, e.read);
  if (!loops || loops->size() != c.domain.size())
    return std::nullopt;
  SmallVector<unsigned> sorted(*loops);
  llvm::sort(sorted);
  if (!llvm::equal(sorted, llvm::seq<unsigned>(0, sorted.size())))
    return std::nullopt;
  return loops;
}

/// Whether the consumer reads the row reduction's value of each of its
/// rows once, at a permuted place (permutedRead, not in order): the block
/// that owns the row computes that element. kf-form-kernels then makes the
/// consumer iterate in the rows' order (KernelRegions.h:
/// readRowValuesInRowOrder).
bool Planner::readsRowsPermuted(const Edge &e) const {
  std::optional<SmallVector<unsigned>> loops = permutedRead(e);
  return loops && !llvm::equal(*loops, llvm::seq<unsigned>(0, loops->size()));
}

/// The loops (among those not static 1s) that say which row of the rows
/// reduction `rows` a node's element belongs to, in the order of the rows'
/// dims: the block that owns that row computes the element. Nullopt for a
/// node no block owns by rows (a chain's scalar) or whose result is not
/// indexed by its loops in order.
std::optional<SmallVector<unsigned>> Planner::ownRow(unsigned n,
                                                     unsigned rows) const {
  const Node &node = g.nodes[n], &red = g.nodes[rows];
  auto linalgOp = cast<linalg::LinalgOp>(node.op);
  SmallVector<unsigned> own;
  if (node.kind == KernelKind::Reduction) {
    // Another family's reduction reading them combines other rows.
    if (!sameReduction(n, rows))
      return std::nullopt;
    for (auto [i, size] : llvm::enumerate(node.loopSizes))
      if (size != 1 && !llvm::is_contained(node.reducedLoops, (int64_t)i))
        own.push_back(nonUnitIndex(node.loopSizes, i));
    return own;
  }
  // Ops over a reduction's space are computed element by element: the
  // result must be indexed by the loops, in order.
  std::optional<SmallVector<unsigned>> writes = nonUnitReads(
      linalgOp.getIndexingMapMatchingResult(node.op->getResult(0)),
      node.loopSizes, node.op->getResult(0));
  if (!writes || !llvm::equal(*writes, llvm::seq<unsigned>(0, writes->size())))
    return std::nullopt;
  const Domain &domain = domainOf(n);
  if (domain == red.domain) {
    for (auto [i, size] : llvm::enumerate(red.loopSizes))
      if (size != 1 && !llvm::is_contained(red.reducedLoops, (int64_t)i))
        own.push_back(nonUnitIndex(red.loopSizes, i));
    return own;
  }
  if (domain == red.outDomain) // a full reduction's one row: the scalar
    return llvm::to_vector(llvm::seq<unsigned>(0, domain.size()));
  return std::nullopt;
}

/// Whether every op of the kernel formed by groups x and y that reads a
/// value computed from the rows reduction `rows` reads it at its own row:
/// the row mapping gives each row to one block, and a block sees no other
/// block's reductions before they are written. The read is followed
/// through the ops in between, whatever their index maps (a transpose, a
/// broadcast), so `s + s.T` of a row sum `s` on a square matrix, where
/// element [i, j] reads row j's sum, is refused although each edge alone
/// reads in place. The full reduction of a chain (and what reads it) is
/// combined after every row, by the last block: not checked here. A small
/// reduction (unrolled in a thread per result) is checked the same way,
/// each of its results being a row: `s.T - x` of a column sum `s` over 2
/// rows read, in the thread of [i, j], the sum another thread computes.
///
/// A group remembers what its last merge's check found (Group::rowDims).
/// When the other group's nodes all come after it, its own nodes read
/// nothing of the other's and their row dims stand: only the other's nodes
/// are checked, so a kernel that grows op by op costs the size of each op,
/// not of the kernel (a 1,000-op row kernel: 3,400 merges).
bool Planner::readsOnlyOwnRows(unsigned a, unsigned b, unsigned rows,
                               std::optional<unsigned> full) {
  const Group &x = groups[a], &y = groups[b];
  auto inside = [&](unsigned n) { return groupOf[n] == a || groupOf[n] == b; };
  auto knows = [&](const Group &group) {
    return group.rowDims && group.rowDims->rows == rows && group.rowDims->full == full;
  };
  std::optional<unsigned> base;
  if (knows(x) && x.last < y.first)
    base = a;
  else if (knows(y) && y.last < x.first)
    base = b;
  SmallVector<unsigned> order;
  for (const Group *group : {&x, &y})
    if (!base || group != &groups[*base])
      order.append(group->nodes.begin(), group->nodes.end());
  llvm::sort(order); // program order: producers first
  auto isFinal = [&](unsigned n) {
    return full && g.nodes[n].kind == KernelKind::Reduction &&
           sameReduction(n, *full);
  };
  RowDims found{rows, full, {}};
  transposedRows = false;
  auto rowDimsOf = [&](unsigned n) -> const SmallVector<unsigned> * {
    if (auto it = found.dims.find(n); it != found.dims.end())
      return &it->second;
    if (base) {
      const auto &known = groups[*base].rowDims->dims;
      if (auto it = known.find(n); it != known.end())
        return &it->second;
    }
    return nullptr;
  };
  for (unsigned n : order) {
    if (isFinal(n))
      continue;
    const Node &node = g.nodes[n];
    bool member = node.kind == KernelKind::Reduction && sameReduction(n, rows);
    std::optional<SmallVector<unsigned>> own;
    for (unsigned e : inEdges[n]) {
      const Edge &edge = g.edges[e];
      const SmallVector<unsigned> *producerDims =
          inside(edge.producer) ? rowDimsOf(edge.producer) : nullptr;
      if (!producerDims)
        continue;
      // Through a reshape or slice (or a gather) the element read is not
      // followed.
      if (edge.throughReshape || edge.gathered)
        return false;
      std::optional<SmallVector<unsigned>> loops = nonUnitReads(
          edge.readMap, g.nodes[n].loopSizes, edge.read);
      if (!loops)
        return false;
      // An op over the rows (or rows x columns) in another order owns the
      // row whose value it reads: its loops say which, through that read
      // (`x.sum(2).t().exp()`, `x.softmax(1).t().contiguous()`).
      // kf-form-kernels makes it iterate in the rows' order
      // (readRowValuesInRowOrder). Over rows x columns, not through loops
      // of size 1 (keepdim values, their transposes): which loops stand
      // for which there, the mappings do not follow.
      bool overRowsAndColumns = permutes(domainOf(n), g.nodes[rows].domain);
      if (!own && overPermutedRows(n, rows) &&
          (!overRowsAndColumns || (!hasUnitLoop(n) && !hasUnitLoop(edge.producer))) &&
          llvm::all_of(*producerDims, [&](unsigned d) { return d < loops->size(); })) {
        own.emplace();
        for (unsigned dim : *producerDims)
          own->push_back((*loops)[dim]);
        transposedRows |= own != ownRow(n, rows);
      }
      if (!own && !(own = ownRow(n, rows)))
        return false;
      for (auto [r, dim] : llvm::enumerate(*producerDims))
        if (dim >= loops->size() || (*loops)[dim] != (*own)[r])
          return false;
    }
    // An op over the rows x columns in another order that reads nothing
    // of the kernel and nothing of it reads it (a sibling: `x.sum(1)`
    // beside `x.t().contiguous()`): its loops that read the rows' elements
    // of the input it shares with the reduction are the rows.
    if (!own && !member && overPermutedRows(n, rows) && !hasUnitLoop(n) &&
        llvm::none_of(inEdges[n], [&](unsigned e) { return inside(g.edges[e].producer); }) &&
        llvm::none_of(succ[n], inside))
      if ((own = ownThroughSharedInput(n, rows, {&x, &y})))
        transposedRows |= own != ownRow(n, rows);
    // A reduction's result dims are its rows'; another op's result is
    // indexed by its loops, in order (ownRow).
    if (member)
      found.dims[n] = llvm::to_vector(
          llvm::seq<unsigned>(0, (unsigned)node.outDomain.size()));
    else if (own)
      found.dims[n] = *own;
  }
  checkedRows = CheckedRows{a, b, base, std::move(found)};
  return true;
}

bool Planner::hasUnitLoop(unsigned n) const {
  return llvm::is_contained(g.nodes[n].loopSizes, 1);
}

/// Node n's loops (among those not static 1s) that read, in a tensor it
/// shares with a reduction of the family `rows` in the kernel, the
/// elements of that reduction's rows, in the order of the rows' dims.
std::optional<SmallVector<unsigned>>
Planner::ownThroughSharedInput(unsigned n, unsigned rows,
                               ArrayRef<const Group *> kernel) const {
  const Node &node = g.nodes[n];
  auto op = cast<linalg::LinalgOp>(node.op);
  SmallVector<unsigned> reductions;
  for (const Group *group : kernel)
    for (unsigned m : group->nodes)
      if (g.nodes[m].kind == KernelKind::Reduction && sameReduction(m, rows) && !hasUnitLoop(m))
        reductions.push_back(m);
  for (unsigned m : reductions) {
    const Node &red = g.nodes[m];
    auto redOp = cast<linalg::LinalgOp>(red.op);
    for (OpOperand *mine : op.getDpsInputOperands())
      for (OpOperand *theirs : redOp.getDpsInputOperands()) {
        if (mine->get() != theirs->get())
          continue;
        std::optional<SmallVector<unsigned>> a = nonUnitReads(
            op.getMatchingIndexingMap(mine), node.loopSizes, mine->get());
        std::optional<SmallVector<unsigned>> r = nonUnitReads(
            redOp.getMatchingIndexingMap(theirs), red.loopSizes, theirs->get());
        if (!a || !r)
          continue;
        SmallVector<unsigned> own;
        for (auto [i, size] : llvm::enumerate(red.loopSizes)) {
          if (size == 1 || llvm::is_contained(red.reducedLoops, (int64_t)i))
            continue;
          auto at = llvm::find(*r, nonUnitIndex(red.loopSizes, i));
          if (at == r->end())
            break;
          own.push_back((*a)[at - r->begin()]);
        }
        if (own.size() == red.outDomain.size())
          return own;
      }
  }
  return std::nullopt;
}

/// Whether `a` holds the sizes of `b` in some order (a permutation).
bool permutes(const Domain &a, const Domain &b) {
  if (a.size() != b.size())
    return false;
  SmallVector<bool> used(b.size(), false);
  for (const analysis::Poly &d : a) {
    unsigned i = 0;
    while (i < used.size() && (used[i] || !(b[i] == d)))
      ++i;
    if (i == used.size())
      return false;
    used[i] = true;
  }
  return true;
}

/// Whether pointwise node n iterates over the rows of the reduction `rows`,
/// or over its rows x columns, in any order (a transposed epilogue; on a
/// square matrix the order is not told by the sizes), its result indexed
/// by its loops in order: which loops are the rows is then read from what
/// it reads, not from its place.
bool Planner::overPermutedRows(unsigned n, unsigned rows) const {
  const Node &node = g.nodes[n], &red = g.nodes[rows];
  if (node.kind != KernelKind::Pointwise)
    return false;
  const Domain &domain = domainOf(n);
  if (!(permutes(domain, red.domain) || permutes(domain, red.outDomain)))
    return false;
  std::optional<SmallVector<unsigned>> writes = nonUnitReads(
      cast<linalg::LinalgOp>(node.op).getIndexingMapMatchingResult(node.op->getResult(0)),
      node.loopSizes, node.op->getResult(0));
  return writes && llvm::equal(*writes, llvm::seq<unsigned>(0, writes->size()));
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
          return refuse(Reason::RuleDisabled, ruleName(FusionRule::ReductionChain));
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
  // The rows, or rows x columns, in another order (overPermutedRows): the
  // same sizes.
  return permutes(domain, red.domain) || permutes(domain, red.outDomain) ||
         (full && domain == g.nodes[*full].outDomain);
}

} // namespace kfuse::fusion
