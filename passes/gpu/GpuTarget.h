//===- GpuTarget.h - the GPU chips and PTX version kfuse emits --*- C++ -*-===//
//
// The rule: PTX ISA 8.0 for every chip. CUDA 12.0, the oldest driver kfuse
// supports, JITs PTX up to ISA 8.0; LLVM 22 emits it and CUDA 13's ptxas
// accepts it. ISA 8.0 covers sm_75 (T4) to sm_90 (H100, H200), and sm_75 is
// the default: its PTX loads on every card the article names (T4, RTX 4090,
// A100, H100, H200) through the driver's JIT. CUDA 13 dropped the chips
// before sm_75. A chip outside the list is refused before it reaches the
// NVPTX backend, which aborts on combinations it does not support.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_GPU_GPUTARGET_H
#define KFUSE_PASSES_GPU_GPUTARGET_H

#include "passes/gpu/GpuChips.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace kfuse::gpu {

inline constexpr const char *kPtxFeatures = "+ptx80";

/// The chips kfuse emits PTX for, as "sm_75, sm_80, ...".
std::string supportedChips();

/// Why `chip` is refused, or nullopt when kfuse supports it.
std::optional<std::string> checkChip(llvm::StringRef chip);

/// The CUDA toolkit whose libdevice math functions (erf, tanh, pow, ...)
/// are linked into kernels: $CUDA_ROOT, $CUDA_HOME or $CUDA_PATH, else
/// /usr/local/cuda; empty when none has nvvm/libdevice.
std::string cudaToolkitPath();

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_GPU_GPUTARGET_H
