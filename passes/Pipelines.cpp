//===- Pipelines.cpp - named kfuse pipelines ------------------------------===//
//
// Pipelines are registered by name so that kfuse-opt replays exactly what
// the compiler runs. They are written as upstream pass pipelines so every
// stage can also be run one pass at a time.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
struct CpuPipelineOptions : PassPipelineOptions<CpuPipelineOptions> {
  Option<std::string> fusion{
      *this, "fusion",
      llvm::cl::desc("on: form fused kernels; none: eager (one per op)"),
      llvm::cl::init("on")};
};

/// kf to LLVM for the host CPU. Kernels are formed as for the GPU (so the
/// CPU runs the same fused computations) and then spliced back in place;
/// bufferization, loops and LLVM follow. The math ops the LLVM dialect
/// lacks (erf, tanh, ipowi) become libm calls or functions.
std::string cpuPipeline(const CpuPipelineOptions &options) {
  return "kf-to-linalg,"
         "kf-form-kernels{fusion=" + options.fusion.getValue() + "},"
         "kf-inline-kernels,"
         "canonicalize,"
         "one-shot-bufferize{bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map},"
         "buffer-deallocation-pipeline,"
         "convert-linalg-to-loops,"
         "expand-strided-metadata,"
         "lower-affine,"
         "convert-scf-to-cf,"
         "convert-math-to-funcs{convert-ctlz=false},"
         "convert-math-to-llvm,"
         "convert-math-to-libm,"
         "finalize-memref-to-llvm,"
         "convert-to-llvm,"
         "reconcile-unrealized-casts";
}
} // namespace

void kfuse::registerKfusePipelines() {
  PassPipelineRegistration<CpuPipelineOptions>(
      "kf-cpu-pipeline",
      "Lower kf to the LLVM dialect for the host CPU (kf-to-linalg, "
      "kf-form-kernels, one-shot bufferization, loops, LLVM)",
      [](OpPassManager &pm, const CpuPipelineOptions &options) {
        if (failed(parsePassPipeline(cpuPipeline(options), pm)))
          llvm::report_fatal_error("kf-cpu-pipeline does not parse");
      });
}
