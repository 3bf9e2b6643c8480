//===- Pipelines.cpp - named kfuse pipelines ------------------------------===//
//
// Pipelines are registered by name so that kfuse-opt replays exactly what
// the compiler runs. They are written as upstream pass pipelines so every
// stage can also be run one pass at a time.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "passes/gpu/GpuTarget.h"

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

/// Kernels spliced in place and bufferized with identity layouts across
/// function boundaries: shared by the CPU and GPU pipelines.
constexpr const char *kBufferize =
    "kf-inline-kernels,"
    "canonicalize,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},";

} // namespace

/// Deallocation, loops, and the math ops the LLVM dialect lacks (erf, tanh,
/// ipowi) as libm calls or functions.
std::string kfuse::cpuLowering(bool dealloc, bool gpuHost) {
  return std::string(dealloc ? "buffer-deallocation-pipeline,"
                               "convert-bufferization-to-memref," // its clones
                             : "") +
         "kf-compensated-sums,"
         "convert-linalg-to-loops,"
         "expand-strided-metadata,"
         "lower-affine,"
         "convert-scf-to-cf,"
         "convert-vector-to-llvm,"
         "convert-math-to-funcs{convert-ctlz=false},"
         "convert-math-to-llvm,"
         "convert-math-to-libm,"
         "finalize-memref-to-llvm," +
         (gpuHost ? "gpu-to-llvm," : "") +
         "convert-to-llvm,"
         "reconcile-unrealized-casts";
}

namespace {
/// kf to LLVM for the host CPU. Kernels are formed as for the GPU (so the
/// CPU runs the same fused computations) and then spliced back in place;
/// bufferization and cpuLowering follow.
std::string cpuPipeline(const CpuPipelineOptions &options) {
  return "kf-to-linalg,"
         "kf-form-kernels{fusion=" + options.fusion.getValue() + "}," +
         kBufferize + kfuse::cpuLowering(/*dealloc=*/true, /*gpuHost=*/false);
}
struct GpuPipelineOptions : PassPipelineOptions<GpuPipelineOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("GPU chip (sm_75 .. sm_90)"),
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

std::string kfuse::gpuPipeline(GpuStage until, llvm::StringRef chip,
                               llvm::StringRef fusion, unsigned blockSize,
                               bool hostKernels) {
  std::string p =
      "kf-check-gpu-target{chip=" + chip.str() + "},"
      "kf-to-linalg,";
  if (until == GpuStage::Linalg)
    return p.substr(0, p.size() - 1);
  p += "kf-form-kernels{fusion=" + fusion.str() + "},";
  if (until == GpuStage::Kernels)
    return p.substr(0, p.size() - 1); // drop the trailing comma
  // Each kernel becomes one gpu.launch named after it, then a gpu.func; the
  // host's buffers become device buffers, all on one stream.
  p += std::string("kf-tag-gpu-kernels{serial-fallback=") +
       (hostKernels ? "true" : "false") + "}," + kBufferize +
       // Deallocation runs on linalg (it does not know gpu.barrier); the
       // mapping then moves the frees a launch needs after it.
       "buffer-deallocation-pipeline,"
       "kf-map-kernels-to-gpu{block-size=" + std::to_string(blockSize) +
       (hostKernels ? " host=true" : "") + "},"
       "convert-bufferization-to-memref,"
       // Integer pow (math.ipowi) as a function; outlining copies it into
       // the kernel module.
       "convert-math-to-funcs{convert-ctlz=false},"
       "gpu-kernel-outlining,"
       "kf-device-buffers,"
       "func.func(gpu-async-region),";
  if (until == GpuStage::Gpu)
    return p.substr(0, p.size() - 1); // drop the trailing comma
  // Device code to NVVM and PTX text (gpu-module-to-binary, format isa),
  // with 64-bit indices so that more than 2^31 elements are addressable.
  p += "lower-affine,"
       "convert-scf-to-cf,"
       "nvvm-attach-target{chip=" + chip.str() + " features=" +
       kfuse::gpu::kPtxFeatures + "},"
       "gpu.module(convert-gpu-to-nvvm{index-bitwidth=64}),"
       "reconcile-unrealized-casts,"
       "gpu-module-to-binary{format=isa" +
       (kfuse::gpu::cudaToolkitPath().empty()
            ? std::string()
            : " toolkit=" + kfuse::gpu::cudaToolkitPath()) +
       "},";
  if (until == GpuStage::Ptx)
    return p.substr(0, p.size() - 1); // drop the trailing comma
  // Host code: kernel launches become mgpu* runtime calls.
  p += "expand-strided-metadata,"
       "lower-affine," // the index math of collapsed and expanded views
       "finalize-memref-to-llvm,"
       "gpu-to-llvm,"
       "convert-to-llvm,"
       "reconcile-unrealized-casts";
  return p;
}

std::string kfuse::hostRuntimePipeline(llvm::StringRef fusion,
                                       unsigned blockSize) {
  return gpuPipeline(GpuStage::Gpu, kfuse::gpu::kDefaultChip, fusion,
                     blockSize, /*hostKernels=*/true) +
         ",kf-host-kernels," + cpuLowering(/*dealloc=*/false, /*gpuHost=*/true) +
         ",kf-host-kernel-abi";
}

void kfuse::registerKfusePipelines() {
  PassPipelineRegistration<GpuPipelineOptions>(
      "kf-gpu-pipeline",
      "Lower kf to NVVM/PTX (device) and LLVM with mgpu* calls (host): "
      "kernels, bufferization, one gpu.launch per kernel, outlining, PTX",
      [](OpPassManager &pm, const GpuPipelineOptions &options) {
        if (failed(parsePassPipeline(
                gpuPipeline(GpuStage::Llvm, options.chip, options.fusion,
                            options.blockSize),
                pm)))
          llvm::report_fatal_error("kf-gpu-pipeline does not parse");
      });
  PassPipelineRegistration<GpuPipelineOptions>(
      "kf-host-runtime-pipeline",
      "Lower kf to LLVM for the host CPU through the kfuse runtime: the GPU "
      "pipeline's kernels become host functions run block by block, "
      "launched with the same mgpu* calls",
      [](OpPassManager &pm, const GpuPipelineOptions &options) {
        if (failed(parsePassPipeline(
                hostRuntimePipeline(options.fusion, options.blockSize), pm)))
          llvm::report_fatal_error("kf-host-runtime-pipeline does not parse");
      });
  PassPipelineRegistration<CpuPipelineOptions>(
      "kf-cpu-pipeline",
      "Lower kf to the LLVM dialect for the host CPU (kf-to-linalg, "
      "kf-form-kernels, one-shot bufferization, loops, LLVM)",
      [](OpPassManager &pm, const CpuPipelineOptions &options) {
        if (failed(parsePassPipeline(cpuPipeline(options), pm)))
          llvm::report_fatal_error("kf-cpu-pipeline does not parse");
      });
}
