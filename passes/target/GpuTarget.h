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
#ifndef KFUSE_PASSES_TARGET_GPUTARGET_H
#define KFUSE_PASSES_TARGET_GPUTARGET_H

#include "passes/target/GpuChips.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>

namespace kfuse::gpu {

inline constexpr const char *kPtxFeatures = "+ptx80";

/// The chips kfuse emits PTX for, as "sm_75, sm_80, ...".
std::string supportedChips();

/// Why `chip` is refused, or nullopt when kfuse supports it.
std::optional<std::string> checkChip(llvm::StringRef chip);

/// The tensor-core instructions a chip offers kfuse's matmul kernels.
enum class TensorCores {
  /// None the kernels use: sm_75's mma.sync has no m16n8k16 for bf16, and
  /// no cp.async or ldmatrix.trans feeds it.
  None,
  /// Warp-level mma.sync.m16n8k16 (f16, bf16, tf32) with ldmatrix and
  /// cp.async: sm_80 to sm_89 (MatmulTensorCore.cpp).
  MmaSync,
  /// Warpgroup-level wgmma.mma_async, fed from shared memory by TMA:
  /// sm_90a, the arch-specific target of sm_90 (MatmulWgmma.cpp); plain
  /// sm_90 keeps mma.sync.
  Wgmma,
};

/// What the GPU mappings know of the chip they emit for, built once from
/// its name where the name is parsed (gpuTargetOf), and handed to the
/// mappings typed: no pass parses "sm_XY" again. The default is the
/// default chip's (kDefaultChip, sm_75).
struct GpuTarget {
  unsigned sm = 75;                        // compute capability x 10
  bool archSpecific = false;               // sm_90a: the arch-specific instructions
  TensorCores tensorCores = TensorCores::None;
  bool cpAsync = false;                    // cp.async global -> shared (sm_80+)
  bool tma = false;                        // the Tensor Memory Accelerator (sm_90)
  unsigned sharedMemoryPerBlock = 48 * 1024; // static, without opting in
  unsigned maxSharedMemoryPerBlock = 64 * 1024; // opted in (cuFuncSetAttribute)
  unsigned warpSize = 32;

  /// The chip's name, as --gpu-chip takes it ("sm_90").
  std::string chip() const { return "sm_" + std::to_string(sm) + (archSpecific ? "a" : ""); }
  /// Whether the matmul may take the tensor-core kernel.
  bool hasTensorCores() const { return tensorCores != TensorCores::None; }
};

/// The target of `chip` (one of kChips), or failure with `refuse` told why
/// kfuse does not emit for it (checkChip's words).
mlir::FailureOr<GpuTarget>
gpuTargetOf(llvm::StringRef chip, llvm::function_ref<void(const llvm::Twine &)> refuse);

/// "none", "mma_sync" or "wgmma" (kernels.json's target).
llvm::StringRef stringifyTensorCores(TensorCores t);

/// The CUDA toolkit whose libdevice math functions (erf, tanh, pow, ...)
/// are linked into kernels: $CUDA_ROOT, $CUDA_HOME or $CUDA_PATH, else
/// /usr/local/cuda; empty when none has nvvm/libdevice.
std::string cudaToolkitPath();

} // namespace kfuse::gpu

#endif // KFUSE_PASSES_TARGET_GPUTARGET_H
