//===- FusionPolicy.h - which kernels fuse, and why not ---------*- C++ -*-===//
#ifndef KFUSE_PASSES_FUSION_FUSIONPOLICY_H
#define KFUSE_PASSES_FUSION_FUSIONPOLICY_H

#include "passes/fusion/KernelGraph.h"

namespace kfuse::fusion {

/// The switches a researcher can turn: each rule on its own, a limit on ops
/// per kernel, and fusion as a whole (off gives eager's boundaries).
struct FusionOptions {
  bool enabled = true;
  unsigned maxOps = 0; // 0: no limit
  bool pointwise = true;          // elementwise into elementwise
  bool reductionPrologue = true;  // elementwise into a reduction
  bool reductionEpilogue = true;  // elementwise after a reduction
  bool rowPersistent = true;      // a row reduction read back over its row
  bool matmulEpilogue = true;     // elementwise after a matmul
  bool reshape = true;            // elementwise through a reshape
  bool recompute = true;          // duplicate a cheap producer
};

/// Why two kernels stay apart: a fixed code and the words for it.
enum class Reason {
  Fused,
  Recomputed,
  FusionOff,
  RuleDisabled,
  ProducerReduction,
  DuplicateReduction,
  ReductionMismatch,
  MatmulBoundary,
  Transpose,
  Reshape,
  OpLimit,
  Cycle,
  AnchorConflict,
  RowMismatch,
};
llvm::StringRef reasonCode(Reason r);
std::string reasonWords(Reason r, llvm::StringRef rule = {});

struct EdgeDecision {
  Reason reason = Reason::Fused;
  std::string rule; // the rule that fused it, or that is disabled
};

struct FusionPlan {
  std::vector<unsigned> groupOf;           // node -> group id
  std::vector<std::vector<unsigned>> groups; // group id -> nodes, in order
  std::vector<EdgeDecision> decisions;     // one per graph edge
  /// Edges resolved by recomputing the producer inside the consumer's
  /// kernel: (edge index), applied by the caller by cloning the producer.
  std::vector<unsigned> recomputed;
};

/// Groups the graph's nodes into kernels under `options`.
FusionPlan planFusion(const KernelGraph &graph, const FusionOptions &options,
                      analysis::SymbolicShapes &shapes);

} // namespace kfuse::fusion

#endif // KFUSE_PASSES_FUSION_FUSIONPOLICY_H
