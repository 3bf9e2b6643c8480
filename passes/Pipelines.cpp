//===- Pipelines.cpp - named kfuse pipelines ------------------------------===//
//
// Pipelines are registered by name so that kfuse-opt replays exactly what
// the compiler runs. They are written as upstream pass pipelines so every
// stage can also be run one pass at a time.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
/// kf to LLVM for the host CPU: lower to linalg, bufferize, loops, LLVM.
/// The math ops the LLVM dialect lacks (erf, tanh, ipowi) become libm calls
/// or functions.
constexpr const char *kCpuPipeline =
    "kf-to-linalg,"
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
} // namespace

void kfuse::registerKfusePipelines() {
  PassPipelineRegistration<>(
      "kf-cpu-pipeline",
      "Lower kf to the LLVM dialect for the host CPU (kf-to-linalg, one-shot "
      "bufferization, loops, LLVM)",
      [](OpPassManager &pm) {
        if (failed(parsePassPipeline(kCpuPipeline, pm)))
          llvm::report_fatal_error("kf-cpu-pipeline does not parse");
      });
}
