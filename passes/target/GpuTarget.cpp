//===- GpuTarget.cpp - the GPU chips and PTX version kfuse emits ----------===//
#include "passes/target/GpuTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"

#include <cassert>
#include <cstdlib>
#include <cstring>
#include <iterator>

namespace kfuse::gpu {

std::string supportedChips() {
  std::string s;
  for (const char *chip : kChips)
    s += (s.empty() ? "" : ", ") + std::string(chip);
  return s;
}

std::optional<std::string> checkChip(llvm::StringRef chip) {
  if (llvm::is_contained(kChips, chip))
    return std::nullopt;
  return "unsupported GPU chip '" + chip.str() + "': kfuse emits PTX ISA " +
         kPtxIsa + " for " +
         supportedChips();
}

namespace {

/// The facts of each chip of kChips. Shared memory per block from the CUDA
/// C++ Programming Guide's table of compute capabilities (maximum amount
/// of shared memory per thread block: 64 KB on 7.5, 163 KB on 8.0 and 8.7,
/// 99 KB on 8.6 and 8.9, 227 KB on 9.0; 48 KB without opting in).
struct ChipFacts {
  unsigned sm;
  TensorCores tensorCores;
  unsigned maxSharedKiB;
};

constexpr ChipFacts kChipFacts[] = {
    {75, TensorCores::None, 64},     {80, TensorCores::MmaSync, 163},
    {86, TensorCores::MmaSync, 99},  {87, TensorCores::MmaSync, 163},
    {89, TensorCores::MmaSync, 99},  {90, TensorCores::MmaSync, 227},
    // sm_90a: sm_90 with its arch-specific instructions (wgmma, setmaxnreg),
    // which PTX for plain sm_90 may not use; its code runs on sm_90 only.
    {90, TensorCores::Wgmma, 227},
};
static_assert(std::size(kChipFacts) == std::size(kChips),
              "a chip of kChips without its facts, or facts of a chip kfuse "
              "does not list");

} // namespace

mlir::FailureOr<GpuTarget>
gpuTargetOf(llvm::StringRef chip, llvm::function_ref<void(const llvm::Twine &)> refuse) {
  if (std::optional<std::string> why = checkChip(chip)) {
    refuse(*why);
    return mlir::failure();
  }
  unsigned sm = 0;
  llvm::StringRef number = chip.drop_front(strlen("sm_"));
  bool archSpecific = number.consume_back("a");
  (void)number.getAsInteger(10, sm);
  // kChipFacts lists the chips in kChips' order.
  const ChipFacts *facts = kChipFacts + (llvm::find(kChips, chip) - std::begin(kChips));
  assert(facts->sm == sm && "a listed chip without its facts");
  GpuTarget target;
  target.sm = sm;
  target.archSpecific = archSpecific;
  target.tensorCores = facts->tensorCores;
  target.cpAsync = sm >= 80;
  target.tma = sm >= 90;
  target.maxSharedMemoryPerBlock = facts->maxSharedKiB * 1024;
  return target;
}

llvm::StringRef stringifyTensorCores(TensorCores t) {
  switch (t) {
  case TensorCores::None: return "none";
  case TensorCores::MmaSync: return "mma_sync";
  case TensorCores::Wgmma: return "wgmma";
  }
  llvm_unreachable("unknown tensor cores");
}

std::string cudaToolkitPath() {
  for (const char *var : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *path = std::getenv(var); path && *path &&
        llvm::sys::fs::is_directory(std::string(path) + "/nvvm/libdevice"))
      return path;
  if (llvm::sys::fs::is_directory("/usr/local/cuda/nvvm/libdevice"))
    return "/usr/local/cuda";
  return "";
}

} // namespace kfuse::gpu
