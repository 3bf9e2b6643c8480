//===- Passes.h - kfuse passes and pipelines --------------------*- C++ -*-===//
#ifndef KFUSE_PASSES_PASSES_H
#define KFUSE_PASSES_PASSES_H

#include "mlir/Pass/Pass.h"

#include <string>

namespace kfuse {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

/// kf-decompose's rewrites, also run at the start of kf-to-linalg.
void populateKfDecomposePatterns(mlir::RewritePatternSet &patterns);

/// The stages of the GPU pipeline, each a prefix of the next.
enum class GpuStage { Linalg, Kernels, Gpu, Ptx, Llvm };

/// The textual pass pipeline (for `builtin.module`) from kf up to `until`.
/// With `hostKernels` (the CPU runtime) kernels the GPU mapping cannot
/// serve run as one serial launch instead of being refused.
std::string gpuPipeline(GpuStage until, llvm::StringRef chip,
                        llvm::StringRef fusion, unsigned blockSize,
                        bool hostKernels = false);

/// Buffers to LLVM for the host CPU, shared by the CPU pipeline, the host
/// runtime and the GPU emulation. Without `dealloc` when deallocation
/// already ran; `gpuHost` lowers the host side of launches and device
/// buffers (gpu-to-llvm) too.
std::string cpuLowering(bool dealloc, bool gpuHost);

/// kf to LLVM for the host CPU through the kfuse runtime: the kernels of
/// the GPU pipeline as host functions, launched with the same mgpu* calls.
std::string hostRuntimePipeline(llvm::StringRef fusion, unsigned blockSize);

/// Registers the named pipelines (kf-cpu-pipeline), so kfuse-opt replays
/// exactly what the compiler runs.
void registerKfusePipelines();

} // namespace kfuse

#endif // KFUSE_PASSES_PASSES_H
