//===- SharedLibrary.h - kfuse-compile --emit=lib ---------------*- C++ -*-===//
#ifndef KFUSE_TOOLS_KFUSE_COMPILE_SHAREDLIBRARY_H
#define KFUSE_TOOLS_KFUSE_COMPILE_SHAREDLIBRARY_H

#include "passes/pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>

namespace kfuse {

struct LibraryOptions {
  /// The fused versions are compiled with `pipeline.fusion` (fusion on),
  /// the eager ones with fusion off; `until` and `target` are ignored.
  PipelineOptions pipeline;
  /// Applied to every pass manager the build runs (kfuse-compile's
  /// --mlir-* options: IR printing, timing, statistics).
  std::function<mlir::LogicalResult(mlir::PassManager &)> configure;
  std::string hostCpu;     // LLVM CPU name for the host code
  std::string output;      // the .so to write
  std::string runtimeDir;  // where libkfuse_runtime.so is
  /// Only the host eager version's code (the others are in the manifest,
  /// without code): a float64 reference, which kfuse-run --check runs
  /// unfused on the CPU only (kfuse-compile --float64-reference).
  bool hostEagerOnly = false;
};

/// Refuses a `cpu` (an LLVM CPU name or "native") the host code cannot be
/// compiled for.
llvm::Error checkHostCpu(llvm::StringRef cpu);

/// Compiles the kf program `module` four times (GPU and host CPU, fused and
/// eager), each to an object, and links them with the manifest into one
/// shared library that needs only the kfuse runtime and the C/C++ standard
/// libraries. A program the GPU mapping cannot serve still gets its host
/// versions; the manifest says why the GPU ones are missing.
mlir::LogicalResult buildSharedLibrary(mlir::ModuleOp module,
                                       const LibraryOptions &options);

} // namespace kfuse

#endif // KFUSE_TOOLS_KFUSE_COMPILE_SHAREDLIBRARY_H
