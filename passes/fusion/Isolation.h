//===- Isolation.h - keeping apart the ops of a refused kernel --*- C++ -*-===//
#ifndef KFUSE_PASSES_FUSION_ISOLATION_H
#define KFUSE_PASSES_FUSION_ISOLATION_H

#include "passes/fusion/KernelGraph.h"
#include "passes/fusion/KernelRegions.h"
#include "passes/fusion/MappingQuery.h"

namespace kfuse::fusion {

/// Marks alone the ops of each fused kernel `query` refuses, with its
/// reason (in an elementwise kernel, its ops whose loops differ from most
/// of its ops first); whether any op was newly marked, so that the plan is
/// made again.
bool isolateUnmappable(const KernelGraph &graph, const FusionPlan &plan,
                       const FormedKernels &formed, Isolation &isolated,
                       const KernelMappingQuery &query);

} // namespace kfuse::fusion

#endif // KFUSE_PASSES_FUSION_ISOLATION_H
