//===- FusionPolicy.h - which kernels fuse, and why not ---------*- C++ -*-===//
#ifndef KFUSE_PASSES_FUSION_FUSIONPOLICY_H
#define KFUSE_PASSES_FUSION_FUSIONPOLICY_H

#include "passes/fusion/FusionOptions.h"
#include "passes/fusion/KernelGraph.h"

namespace kfuse::fusion {

/// Why two kernels stay apart (declared in ODS: dialect/Kf/KfAttrs.td).
using Reason = kf::BoundaryReason;
/// The reason's code in the report ("fusion-off": the enum's keyword with
/// dashes) and its words.
std::string reasonCode(Reason r);
std::string reasonWords(Reason r, llvm::StringRef rule = {});

struct EdgeDecision {
  Reason reason = Reason::Fused;
  std::string rule; // the rule that fused it, or that is disabled
};

/// Nodes kept in kernels of their own because a kernel they were fused
/// into was one no GPU mapping serves, with that refusal (kf-form-kernels
/// plans again without those merges).
struct Isolation {
  std::vector<bool> alone;          // node -> kept alone
  std::vector<std::string> why;     // node -> the mapping's refusal
  /// node -> the refused kernel it was kept apart from (numbered from 1;
  /// that kernel's ops are let fuse again, for good, when one of them is
  /// refused even alone: a kernel without a mapping either way is better
  /// fused).
  std::vector<unsigned> round;
  std::vector<bool> keepFused;
  /// node -> in an attention kernel the mappings refused: the attention
  /// rule leaves it to the other rules (isolating a whole attention's ops
  /// would make each a kernel).
  std::vector<bool> noAttention;
  /// node -> in a multi-reduction kernel the mappings refused: the
  /// multi-reduction rule leaves it alone.
  std::vector<bool> noMultiReduction;
};

struct FusionPlan {
  std::vector<unsigned> groupOf;           // node -> group id
  std::vector<std::vector<unsigned>> groups; // group id -> nodes, in order
  std::vector<KernelKind> groupKinds;      // group id -> the kernel's kind
  std::vector<bool> multiReduction;        // group id -> formed by that rule
  std::vector<EdgeDecision> decisions;     // one per graph edge
  /// Edges resolved by recomputing the producer inside the consumer's
  /// kernel: (edge index), applied by the caller by cloning the producer.
  std::vector<unsigned> recomputed;
  /// Nodes whose groups were joined because they read the same tensor
  /// (sibling fusion): (first reader, second reader, the tensor).
  struct Siblings {
    unsigned first, second;
    mlir::Value read;
    bool acrossAxes = false; // the multi-reduction rule's: rows and columns
  };
  std::vector<Siblings> siblings;
  /// Attentions the rule found but did not form: (their second matmul's
  /// node, why), each a missed remark.
  std::vector<std::pair<unsigned, std::string>> attentionsMissed;
};

/// Groups the graph's nodes into kernels under `options`.
FusionPlan planFusion(const KernelGraph &graph, const FusionOptions &options,
                      analysis::SymbolicShapes &shapes,
                      const Isolation &isolated);

} // namespace kfuse::fusion

#endif // KFUSE_PASSES_FUSION_FUSIONPOLICY_H
