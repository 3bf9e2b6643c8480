//===- KernelMapping.h - which GPU mapping serves a kernel ------*- C++ -*-===//
//
// The one decision of how a kernel runs on the GPU, shared by
// kf-assign-kernel-mappings (which stores it) and, through the query that
// the pipeline builder hands it, kf-form-kernels (which never forms a
// kernel that no mapping serves).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_GPU_KERNELMAPPING_H
#define KFUSE_PASSES_GPU_KERNELMAPPING_H

#include "dialect/Kf/KfOps.h"
#include "passes/Passes.h"
#include "passes/target/GpuTarget.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kfuse::gpu {

/// The mapping that serves `kernel` (on tensors, bodies merged), whose
/// linalg ops are `ops` in program order, or a refusal whose reason is
/// streamed into the diagnostic `refuse` returns.
mlir::FailureOr<kf::KernelMapping>
decideKernelMapping(kf::KernelOp kernel, llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                    llvm::function_ref<mlir::InFlightDiagnostic()> refuse);

/// decideKernelMapping as kernel formation asks it (fusion/MappingQuery.h):
/// the refusal's reason comes back as a value, and no diagnostic is
/// reported.
mlir::FailureOr<kf::KernelMapping>
queryKernelMapping(kf::KernelOp kernel, llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                   std::string &refusal);

/// kf-assign-kernel-mappings for a target the pipeline checked
/// (checkPipelineOptions): the variants are chosen from its facts, and the
/// chip is not checked again; `options.chip` is ignored (the pass prints
/// `target`'s).
std::unique_ptr<mlir::Pass>
createKfAssignKernelMappings(const KfAssignKernelMappingsOptions &options,
                             const GpuTarget &target);

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_KERNELMAPPING_H
