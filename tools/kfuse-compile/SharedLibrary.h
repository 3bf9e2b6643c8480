//===- SharedLibrary.h - kfuse-compile --emit=lib ---------------*- C++ -*-===//
#ifndef KFUSE_TOOLS_KFUSE_COMPILE_SHAREDLIBRARY_H
#define KFUSE_TOOLS_KFUSE_COMPILE_SHAREDLIBRARY_H

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>

namespace kfuse {

struct LibraryOptions {
  std::string chip;
  unsigned blockSize = 256;
  std::string hostCpu;     // LLVM CPU name for the host code
  std::string output;      // the .so to write
  std::string runtimeDir;  // where libkfuse_runtime.so is
};

/// Why the host code cannot be compiled for `cpu` (an LLVM CPU name or
/// "native"), or nothing.
std::optional<std::string> checkHostCpu(llvm::StringRef cpu);

/// Compiles the kf program `module` four times (GPU and host CPU, fused and
/// eager), each to an object, and links them with the manifest into one
/// shared library that needs only the kfuse runtime and the C/C++ standard
/// libraries. A program the GPU mapping cannot serve still gets its host
/// versions; the manifest says why the GPU ones are missing.
mlir::LogicalResult buildSharedLibrary(mlir::ModuleOp module,
                                       const LibraryOptions &options);

} // namespace kfuse

#endif // KFUSE_TOOLS_KFUSE_COMPILE_SHAREDLIBRARY_H
