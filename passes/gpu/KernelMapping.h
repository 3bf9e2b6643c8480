//===- KernelMapping.h - which GPU mapping serves a kernel ------*- C++ -*-===//
//
// The one decision of how a kernel runs on the GPU, shared by
// kf-assign-kernel-mappings (which stores it) and kf-form-kernels (which
// never forms a kernel that no mapping serves).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_GPU_KERNELMAPPING_H
#define KFUSE_PASSES_GPU_KERNELMAPPING_H

#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kfuse::gpu {

/// The mapping that serves `kernel` (on tensors, bodies merged), whose
/// linalg ops are `ops` in program order, or a refusal whose reason is
/// streamed into the diagnostic `refuse` returns.
mlir::FailureOr<kf::KernelMapping>
decideKernelMapping(kf::KernelOp kernel, llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                    llvm::function_ref<mlir::InFlightDiagnostic()> refuse);

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_KERNELMAPPING_H
