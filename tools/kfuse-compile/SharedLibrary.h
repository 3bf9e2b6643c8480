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

/// The versions of a program a library holds code for, by target (GPU,
/// host CPU) and fusion (fused, eager). Building only what a run needs is
/// what keeps a first run of a long program short: the eager versions of a
/// 1,000-op program are about 3,400 kernels and 40% of the build. The
/// manifest describes the kernels of both fusions either way.
struct VariantSelection {
  bool gpuFused = true, hostFused = true, gpuEager = true, hostEager = true;
  bool has(bool host, bool fused) const {
    return host ? (fused ? hostFused : hostEager) : (fused ? gpuFused : gpuEager);
  }
  bool all() const { return gpuFused && hostFused && gpuEager && hostEager; }
  /// "all", or the names held: "gpu_fused,host_fused".
  std::string str() const;
};

/// Parses --variants: a comma-separated list of all, fused (both targets),
/// eager, gpu_fused, host_fused, gpu_eager and host_eager.
llvm::Expected<VariantSelection> parseVariantSelection(llvm::StringRef spec);

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
  /// The versions whose code the library holds (--variants). A float64
  /// reference holds the host eager version's only: kfuse-run --check
  /// runs it unfused on the CPU (kfuse-compile --float64-reference).
  VariantSelection variants;
  bool float64Reference = false;
};

/// Refuses a `cpu` (an LLVM CPU name or "native") the host code cannot be
/// compiled for.
llvm::Error checkHostCpu(llvm::StringRef cpu);

/// Compiles the kf program `module` for each version `options.variants`
/// selects (GPU and host CPU, fused and eager: four at most), each to an
/// object, and links them with the manifest into one
/// shared library that needs only the kfuse runtime and the C/C++ standard
/// libraries. A program the GPU mapping cannot serve still gets its host
/// versions; the manifest says why the GPU ones are missing.
mlir::LogicalResult buildSharedLibrary(mlir::ModuleOp module,
                                       const LibraryOptions &options);

} // namespace kfuse

#endif // KFUSE_TOOLS_KFUSE_COMPILE_SHAREDLIBRARY_H
