//===- KfMapKernelsToGpu.h - kf-map-kernels-to-gpu from a pipeline -*- C++ -*-===//
#ifndef KFUSE_PASSES_GPU_KFMAPKERNELSTOGPU_H
#define KFUSE_PASSES_GPU_KFMAPKERNELSTOGPU_H

#include "passes/Passes.h"

namespace kfuse::gpu {

/// kf-map-kernels-to-gpu with options a pipeline checked
/// (checkPipelineOptions): the pass does not check its block size again.
std::unique_ptr<mlir::Pass>
createCheckedKfMapKernelsToGpu(const KfMapKernelsToGpuOptions &options);

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_KFMAPKERNELSTOGPU_H
