//===- MappingQuery.h - kernel formation asks a target what it runs -*- C++ -*-===//
//
// kf-form-kernels' rules approximate what the target's mappings serve; the
// mappings decide. The question is handed to kernel formation as a
// callback by whoever builds the pipeline (upstream Linalg's
// ControlFusionFn is the model): fusion keeps the mechanism (keep an
// unmappable kernel's ops apart, plan again), the target keeps the policy
// (passes/gpu/KernelMapping.h answers for the GPU), and fusion/ includes
// nothing of gpu/.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_FUSION_MAPPINGQUERY_H
#define KFUSE_PASSES_FUSION_MAPPINGQUERY_H

#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <functional>
#include <string>

namespace kfuse::fusion {

/// The mapping that serves a formed `kernel` whose linalg ops are `ops` (in
/// program order), or failure with `refusal` set to why none does, in
/// words (the `unmappable` boundary records them). Asked on tensors, once
/// the kernel's bodies are merged; it must not change the IR or report a
/// diagnostic.
using KernelMappingQuery = std::function<mlir::FailureOr<kf::KernelMapping>(
    kf::KernelOp kernel, llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
    std::string &refusal)>;

} // namespace kfuse::fusion

#endif // KFUSE_PASSES_FUSION_MAPPINGQUERY_H
