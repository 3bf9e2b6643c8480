//===- TestPipelines.cpp - pipelines that execute GPU code on the host ----===//
//
// kf-gpu-emulation-pipeline: the GPU pipeline up to one gpu.launch per
// kernel, then the launches run as host loops (kf-emulate-gpu-launches) and
// everything is lowered for the CPU, so mlir-runner executes the GPU
// mapping. Tests only: no tool but kfuse-opt registers it.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "passes/gpu/GpuTarget.h"
#include "test/lib/TestPasses.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
struct EmulationPipelineOptions
    : PassPipelineOptions<EmulationPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("GPU chip (sm_75 .. sm_90)"),
                           llvm::cl::init(kfuse::gpu::kDefaultChip)};
  Option<std::string> fusion{
      *this, "fusion",
      llvm::cl::desc("on: form fused kernels; none: eager (one per op)"),
      llvm::cl::init("on")};
  Option<unsigned> blockSize{*this, "block-size",
                             llvm::cl::desc("threads per block"),
                             llvm::cl::init(256)};
};
} // namespace

void kfuse::registerKfuseTestPipelines() {
  PassPipelineRegistration<EmulationPipelineOptions>(
      "kf-gpu-emulation-pipeline",
      "For tests without a GPU: the GPU pipeline up to one gpu.launch per "
      "kernel, then the launches run as host loops and all is lowered for "
      "the CPU",
      [](OpPassManager &pm, const EmulationPipelineOptions &options) {
        std::string p = gpuPipeline(GpuStage::Gpu, options.chip,
                                    options.fusion, options.blockSize);
        p = p.substr(0, p.rfind(",gpu-kernel-outlining"));
        p += ",kf-emulate-gpu-launches," +
             cpuLowering(/*dealloc=*/false, /*gpuHost=*/false);
        if (failed(parsePassPipeline(p, pm)))
          llvm::report_fatal_error("kf-gpu-emulation-pipeline does not parse");
      });
}
