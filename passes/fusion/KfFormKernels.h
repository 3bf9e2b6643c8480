//===- KfFormKernels.h - kf-form-kernels with a target's query --*- C++ -*-===//
#ifndef KFUSE_PASSES_FUSION_KFFORMKERNELS_H
#define KFUSE_PASSES_FUSION_KFFORMKERNELS_H

#include "passes/Passes.h"
#include "passes/fusion/MappingQuery.h"

namespace kfuse::fusion {

/// kf-form-kernels whose kernels `query` checks (with `check-mappings`,
/// the default): a kernel it refuses has its ops kept apart and the plan
/// made again. Without a query nothing is checked.
std::unique_ptr<mlir::Pass> createKfFormKernels(const KfFormKernelsOptions &options,
                                                KernelMappingQuery query);

} // namespace kfuse::fusion

#endif // KFUSE_PASSES_FUSION_KFFORMKERNELS_H
