//===- TestPipelines.cpp - pipelines that execute GPU code on the host ----===//
//
// kf-gpu-emulation-pipeline: the GPU pipeline up to one gpu.launch per
// kernel, then the launches run as host loops (kf-emulate-gpu-launches) and
// everything is lowered for the CPU, so mlir-runner executes the GPU
// mapping. kf-gpu-emulation-reversed-pipeline runs each launch's blocks
// from the last to the first (a GPU runs them in any order; the kernels
// finished by their last block must not care which that is). Tests only:
// no tool but kfuse-opt registers them. They take the fusion switches and
// the block size (no chip: they emit no PTX).
//
//===----------------------------------------------------------------------===//
#include "passes/Pipelines.h"
#include "test/lib/TestPasses.h"

using namespace mlir;

void kfuse::registerKfuseTestPipelines() {
  for (bool reverse : {false, true}) {
    registerPipeline<HostPipelineOptions>(
        reverse ? "kf-gpu-emulation-reversed-pipeline" : "kf-gpu-emulation-pipeline",
        reverse ? "kf-gpu-emulation-pipeline with each launch's blocks run from the "
                  "last to the first (a GPU runs them in any order)"
                : "For tests without a GPU: the GPU pipeline up to one gpu.launch per "
                  "kernel, then the launches run as host loops and all is lowered for "
                  "the CPU",
        [](const HostPipelineOptions &cl, auto refuse) {
          // The GPU's mappings (not the host runtime's serial fallback).
          return toPipelineOptions(cl, Target::Gpu, refuse);
        },
        [reverse](OpPassManager &pm, const PipelineOptions &options) {
          addStagePasses(pm, Stage::Linalg, options);
          addStagePasses(pm, Stage::Kernels, options);
          addLaunchPasses(pm, options);
          KfEmulateGpuLaunchesOptions emulate;
          emulate.reverseBlocks = reverse;
          pm.addPass(createKfEmulateGpuLaunches(emulate));
          addCpuLoweringPasses(pm, /*dealloc=*/false, /*gpuHost=*/false);
        });
  }
}
