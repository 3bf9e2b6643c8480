//===- Planner.h - the state of kernel grouping (fusion internals) -*- C++ -*-===//
//
// The greedy grouping of kf-form-kernels, shared by the files that
// implement its steps: FusionPolicy.cpp (each producer/consumer edge, then
// the merge of two groups), SiblingFusion.cpp (groups that read the same
// tensor) and Recompute.cpp (a cheap producer copied into its consumer).
// Private to passes/fusion.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_FUSION_PLANNER_H
#define KFUSE_PASSES_FUSION_PLANNER_H

#include "passes/fusion/FusionPolicy.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kfuse::fusion {

/// For each node of a kernel computed from a row reduction's rows: which
/// of its result's (non-unit) dims hold the row's coordinates, in order
/// (Planner::readsOnlyOwnRows), for one rows family and chain end.
struct RowDims {
  unsigned rows;
  std::optional<unsigned> full;
  llvm::DenseMap<unsigned, llvm::SmallVector<unsigned>> dims;
};

struct Group {
  std::vector<unsigned> nodes;
  unsigned first = 0, last = 0; // its nodes earliest and latest in program order
  /// The row dims of its nodes, as its last merge's check found them: a
  /// merge with a group wholly after it checks that group's nodes only.
  std::optional<RowDims> rowDims;
  std::vector<unsigned> exits; // nodes of other groups that its nodes feed
  std::optional<unsigned> matmul;
  /// Its family of reductions over rows (one of them), and the family of
  /// full reductions of those rows' results that ends a reduction chain.
  std::optional<unsigned> reduction, finalReduction;
  bool hasSmallReduction = false; // unrolled in a thread: a flat kernel
  /// An attention (MatmulGroups.cpp): formed whole, takes nothing else.
  bool attention = false;
  /// Reductions of one tensor over its rows and its columns, with their
  /// epilogues (SiblingFusion.cpp: the multi-reduction rule): takes
  /// nothing else.
  bool multiReduction = false;
  /// The distinct iteration spaces of its pointwise nodes (one or two in
  /// practice), so a merge checks rows in time independent of group size.
  std::vector<Domain> pointwiseDomains;
};

/// Whether `a` holds the sizes of `b` in some order (a permutation).
bool permutes(const Domain &a, const Domain &b);

class Planner {
public:
  Planner(const KernelGraph &graph, const FusionOptions &options,
          analysis::SymbolicShapes &shapes, const Isolation &isolated);
  FusionPlan run();

private:
  const KernelGraph &g;
  const FusionOptions &opt;
  analysis::SymbolicShapes &shapes;
  const Isolation &isolated;
  std::vector<std::vector<unsigned>> succ;
  std::vector<llvm::SmallVector<unsigned>> inEdges; // edge indices by consumer
  std::vector<Group> groups;
  std::vector<unsigned> groupOf;
  std::vector<KernelKind> kinds; // how each node fuses (see kindOf)
  std::vector<bool> small;       // unrolled small reductions
  unsigned lastMerged = 0;       // the latest node in a group of several
  /// Whether the last readsOnlyOwnRows found an op over the rows in
  /// another order than the reduction's (the transposed-epilogue rule).
  bool transposedRows = false;
  /// Producer/consumer pairs a rule refused: never in one kernel.
  struct Separation {
    unsigned producer, consumer;
    EdgeDecision decision; // the reason and, when switched off, the rule
  };
  std::vector<Separation> separate;

  // FusionPolicy.cpp
  KernelKind kindOf(unsigned n) const;
  bool isSmallReduction(unsigned n) const;
  bool takesSmallPrologues(unsigned n) const;
  EdgeDecision smallReductionsFit(const Group &x, const Group &y, std::optional<unsigned> rows,
                                  std::optional<unsigned> full,
                                  llvm::SmallVectorImpl<Domain> &prologueDomains) const;
  void findSmallReductions();
  const Domain &domainOf(unsigned n) const;
  EdgeDecision refuse(Reason r, llvm::StringRef rule = {}) const {
    return {r, rule.str()};
  }
  /// Fused by `r`, or refused (rule-disabled) when its switch is off.
  EdgeDecision rule(FusionRule r) const;
  EdgeDecision localRule(const Edge &e);
  bool inlinedInConsumer(const Edge &e) const;
  bool readsOwnRow(const Edge &e) const;
  bool readsRowsPermuted(const Edge &e) const;
  bool overPermutedRows(unsigned n, unsigned rows) const;
  bool hasUnitLoop(unsigned n) const;
  std::optional<llvm::SmallVector<unsigned>>
  ownThroughSharedInput(unsigned n, unsigned rows,
                        llvm::ArrayRef<const Group *> kernel) const;
  std::optional<llvm::SmallVector<unsigned>> permutedRead(const Edge &e) const;
  bool sameReduction(unsigned a, unsigned b) const;
  std::optional<llvm::SmallVector<unsigned>> ownRow(unsigned n,
                                                    unsigned rows) const;
  bool readsOnlyOwnRows(unsigned a, unsigned b, unsigned rows,
                        std::optional<unsigned> full);
  /// What the last readsOnlyOwnRows of the rows family found, for join:
  /// the row dims of the nodes it checked (`base`'s others were known).
  struct CheckedRows {
    unsigned a, b;
    std::optional<unsigned> base; // the group whose rowDims it extends
    RowDims found;
  };
  std::optional<CheckedRows> checkedRows;
  bool chains(unsigned rows, unsigned full) const;
  EdgeDecision reductionsFit(const Group &x, const Group &y,
                             std::optional<unsigned> &rows,
                             std::optional<unsigned> &full) const;
  bool fitsRows(const Domain &domain, std::optional<unsigned> rows,
                std::optional<unsigned> full) const;
  bool makesCycle(unsigned a, unsigned b);
  EdgeDecision canMerge(unsigned a, unsigned b);
  void join(unsigned a, unsigned b);
  EdgeDecision merge(const Edge &e, EdgeDecision local);
  void debugDecision(const Edge &e, const EdgeDecision &d) const;

  // MatmulGroups.cpp
  /// Forms each attention's ops into one group, before any edge is judged;
  /// the edges inside are decided (fused by the `attention` rule).
  void formAttention(FusionPlan &plan);
  std::vector<bool> decided; // edge -> decided by formAttention
  /// Whether two groups' matmuls are a chain of sums (matmul-chain).
  bool summedMatmuls(const Group &x, const Group &y) const;

  // SiblingFusion.cpp
  void fuseSiblings(FusionPlan &plan);
  bool sameSpace(const Group &x, const Group &y) const;
  void fuseAcrossAxes(FusionPlan &plan);
  std::optional<bool> axisFamily(unsigned gid, mlir::Value input, unsigned split) const;

  // Recompute.cpp
  int64_t typicalBytes(mlir::Value v);
  void recompute(FusionPlan &plan);
};

} // namespace kfuse::fusion

#endif // KFUSE_PASSES_FUSION_PLANNER_H
