//===- TestPipelines.cpp - pipelines that execute GPU code on the host ----===//
//
// kf-gpu-emulation-pipeline: the GPU pipeline up to one gpu.launch per
// kernel, then the launches run as host loops (kf-emulate-gpu-launches) and
// everything is lowered for the CPU, so mlir-runner executes the GPU
// mapping. kf-gpu-emulation-reversed-pipeline runs each launch's blocks
// from the last to the first (a GPU runs them in any order; the kernels
// finished by their last block must not care which that is).
// kf-gpu-emulation-reference-pipeline maps matmuls with the 16x16
// reference kernel (kf-assign-kernel-mappings{matmul=reference}). Tests only:
// no tool but kfuse-opt registers them. They take the fusion switches, the
// block size and the tensor-core matmul's tiles (no chip: they emit no PTX).
//
//===----------------------------------------------------------------------===//
#include "passes/pipelines/Pipelines.h"
#include "test/lib/TestPasses.h"

using namespace mlir;

namespace {

/// The host runtime pipeline's options and, for the sm_80 variants, the
/// tensor-core matmul's tiles (kfuse-compile --matmul-tiles).
struct EmulationPipelineOptions : kfuse::FusionPipelineOptions<EmulationPipelineOptions> {
  Option<unsigned> blockSize{*this, "block-size", llvm::cl::desc("threads per block"),
                             llvm::cl::init(256)};
  Option<std::string> matmulTiles{
      *this, "matmul-tiles",
      llvm::cl::desc("every tensor-core matmul's tiles, MxNxK/WMxWN/STAGES[/GROUP_M]"),
      llvm::cl::init("")};
};

struct Variant {
  const char *name, *description;
  bool reverse;
  const char *matmul;
  /// The chip the kernels are mapped for; from sm_80, with the nvgpu ops
  /// of the tensor-core matmul expanded into per-lane code first.
  const char *chip = nullptr;
  bool tf32 = false; // f32 matmuls on tensor cores too
};

} // namespace

void kfuse::registerKfuseTestPipelines() {
  static const Variant variants[] = {
      {"kf-gpu-emulation-pipeline",
       "For tests without a GPU: the GPU pipeline up to one gpu.launch per kernel, then "
       "the launches run as host loops and all is lowered for the CPU",
       false, "fastest"},
      {"kf-gpu-emulation-reversed-pipeline",
       "kf-gpu-emulation-pipeline with each launch's blocks run from the last to the "
       "first (a GPU runs them in any order)",
       true, "fastest"},
      {"kf-gpu-emulation-reference-pipeline",
       "kf-gpu-emulation-pipeline with matmuls on the 16x16 reference kernel", false,
       "reference"},
      {"kf-gpu-emulation-sm80-pipeline",
       "kf-gpu-emulation-pipeline for sm_80: f16 and bf16 matmuls on the tensor-core "
       "kernel, its warp-level ops expanded into per-lane code (kf-expand-warp-matrix-ops)",
       false, "fastest", "sm_80"},
      {"kf-gpu-emulation-sm80-tf32-pipeline",
       "kf-gpu-emulation-sm80-pipeline with f32 matmuls on tensor cores as TF32", false,
       "fastest", "sm_80", true},
  };
  for (const Variant &v : variants) {
    registerPipeline<EmulationPipelineOptions>(
        v.name, v.description,
        [&v](const EmulationPipelineOptions &cl, auto refuse) -> FailureOr<PipelineOptions> {
          // The GPU's mappings (not the host runtime's serial fallback).
          FailureOr<PipelineOptions> options =
              toPipelineOptions(cl.fusionOptions(refuse), cl.blockSize, Target::Gpu,
                                v.chip ? v.chip : gpu::kDefaultChip, refuse);
          if (failed(options))
            return failure();
          options->matmul = v.matmul;
          options->tf32 = v.tf32;
          options->matmulTiles = cl.matmulTiles;
          return checkPipelineOptions(*options, refuse);
        },
        [&v](OpPassManager &pm, const PipelineOptions &options) {
          addStagePasses(pm, Stage::Linalg, options);
          addStagePasses(pm, Stage::Kernels, options);
          addLaunchPasses(pm, options);
          if (v.chip)
            pm.addPass(createKfExpandWarpMatrixOps());
          KfEmulateGpuLaunchesOptions emulate;
          emulate.reverseBlocks = v.reverse;
          pm.addPass(createKfEmulateGpuLaunches(emulate));
          addCpuLoweringPasses(pm, /*dealloc=*/false, /*gpuHost=*/false);
        });
  }
}
