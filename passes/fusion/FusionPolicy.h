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
