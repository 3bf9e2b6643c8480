//===- TestPipelines.cpp - pipelines that execute GPU code on the host ----===//
//
// kf-gpu-emulation-pipeline: the GPU pipeline up to one gpu.launch per
// kernel, then the launches run as host loops (kf-emulate-gpu-launches) and
// everything is lowered for the CPU, so mlir-runner executes the GPU
// mapping. Tests only: no tool but kfuse-opt registers it. It takes the
// fusion switches and the block size (no chip: it emits no PTX).
//
//===----------------------------------------------------------------------===//
#include "passes/Pipelines.h"
#include "test/lib/TestPasses.h"

using namespace mlir;

void kfuse::registerKfuseTestPipelines() {
  registerPipeline<HostPipelineOptions>(
      "kf-gpu-emulation-pipeline",
      "For tests without a GPU: the GPU pipeline up to one gpu.launch per "
      "kernel, then the launches run as host loops and all is lowered for "
      "the CPU",
      [](const HostPipelineOptions &cl, auto refuse) {
        // The GPU's mappings (not the host runtime's serial fallback).
        return toPipelineOptions(cl, Target::Gpu, refuse);
      },
      [](OpPassManager &pm, const PipelineOptions &options) {
        addStagePasses(pm, Stage::Linalg, options);
        addStagePasses(pm, Stage::Kernels, options);
        addLaunchPasses(pm, options);
        pm.addPass(createKfEmulateGpuLaunches());
        addCpuLoweringPasses(pm, /*dealloc=*/false, /*gpuHost=*/false);
      });
}
