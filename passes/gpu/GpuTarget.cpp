//===- GpuTarget.cpp - the GPU chips and PTX version kfuse emits ----------===//
#include "passes/gpu/GpuTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"

#include <cstdlib>

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
