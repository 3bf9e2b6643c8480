//===- Pipelines.h - kfuse's pipelines, built from one options struct -*- C++ -*-===//
//
// Every pipeline kfuse runs is built here, in C++, from PipelineOptions:
// kfuse-compile (each --emit stage, --emit=lib's four versions), the named
// pipelines kfuse-opt replays (kf-cpu-pipeline, kf-gpu-pipeline,
// kf-host-runtime-pipeline, and the test-only kf-gpu-emulation-pipeline).
// The options are checked once, where they are parsed: the chip when its
// typed target is built (gpu::gpuTargetOf), the block size by
// checkPipelineOptions; the passes the pipelines build check neither again.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_PIPELINES_PIPELINES_H
#define KFUSE_PASSES_PIPELINES_PIPELINES_H

#include "passes/fusion/FusionOptions.h"
#include "passes/target/GpuTarget.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

#include <functional>
#include <string>

namespace kfuse {

/// The stages of the compiler, each a prefix of the next (kfuse-compile
/// --emit=<stage>, --dump-dir's files).
enum class Stage { Linalg, Kernels, Gpu, Ptx, Llvm };

/// Where the kernels run: the GPU (PTX, launched through the CUDA driver),
/// or the host CPU through the kfuse runtime (the same launches, each
/// kernel a host function run block by block; no PTX).
enum class Target { Gpu, Host };

struct PipelineOptions {
  fusion::FusionOptions fusion;
  /// The GPU target only: the chip's facts, typed, built from its name by
  /// gpuTargetOf where the name is parsed (the default: kDefaultChip's).
  gpu::GpuTarget gpu;
  unsigned blockSize = 256;             // threads per block
  Target target = Target::Gpu;
  Stage until = Stage::Llvm;
  /// The GPU kernel of matmuls (kf-map-kernels-to-gpu's `matmul`): the
  /// reference 16x16 tile only in tests.
  std::string matmul = "fastest";
  /// f32 matmuls on tensor cores as TF32 (sm_80 and later;
  /// kf-map-kernels-to-gpu's `tf32`): off by default, as PyTorch's
  /// allow_tf32 for matmuls.
  bool tf32 = false;
  /// The tiles of every tensor-core matmul (kf-assign-kernel-mappings'
  /// `matmul-tiles`, kfuse-compile --matmul-tiles): empty for the table.
  std::string matmulTiles;
  /// kf-cpu-pipeline only: the moments of layer_norm, rms_norm, var and std
  /// in f64 (kf-to-linalg's f64-moments, the CPU's numbers); false gives
  /// the GPU's f32 moments, the reference its emulation is compared with.
  bool f64Moments = true;
  /// The host runtime only: the width of the CPU's vector registers
  /// (kf-map-kernels-to-host's `vector-bits`): 256, or 512 where the CPU
  /// kfuse-compile compiles for has AVX-512 F and VL (hostVectorBits);
  /// 512 also gives kf-host-math's x86-scalef.
  unsigned hostVectorBits = 256;
  /// Test only (kfuse-compile --plant-mutation): kf-plant-mutation's kind,
  /// planted in the fused version after kernel formation; empty: none.
  std::string mutation;
};

/// `options` when kfuse can build them: the block size a multiple of 32
/// from 32 to 1024 (the chip was checked when its GpuTarget was built).
/// Otherwise `refuse` is told why and this fails. The one check: the
/// mapping passes get the typed target and check neither again.
mlir::FailureOr<PipelineOptions>
checkPipelineOptions(PipelineOptions options,
                     llvm::function_ref<void(const llvm::Twine &)> refuse);

/// Adds the passes of `stage` alone: those after the stage before it.
/// Running the stages one after the other is running buildPipeline.
void addStagePasses(mlir::OpPassManager &pm, Stage stage,
                    const PipelineOptions &options);

/// kf up to `options.until`: the passes of every stage up to it.
void buildPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// The part of the Gpu stage that makes each kernel its gpu.launch (before
/// outlining): the GPU mapping segment, then what the launches' bodies
/// still need. kf-gpu-emulation-pipeline runs these launches on the host.
void addLaunchPasses(mlir::OpPassManager &pm, const PipelineOptions &options);

/// The GPU mapping segment (passes/pipelines/MappingPipeline.cpp): kernels on
/// tensors to one gpu.launch each, on buffers, with deallocation placed.
void addGpuMappingPasses(mlir::OpPassManager &pm,
                         const PipelineOptions &options);

/// Upstream's buffer-deallocation-pipeline, with kf-split-deallocs before
/// its simplification (quadratic in the buffers of a block otherwise).
void addDeallocationPasses(mlir::OpPassManager &pm);

/// Buffers to LLVM for the host CPU, shared by the CPU pipeline, the host
/// runtime and the GPU emulation. Without `dealloc` when deallocation
/// already ran; `gpuHost` lowers the host side of launches and device
/// buffers (gpu-to-llvm) too.
void addCpuLoweringPasses(mlir::OpPassManager &pm, bool dealloc, bool gpuHost,
                          bool x86Scalef = false);

/// kf to LLVM for the host CPU without the runtime: kernels formed as for
/// the GPU (so the CPU runs the same fused computations), spliced back in
/// place, bufferized, lowered.
void buildCpuPipeline(mlir::OpPassManager &pm,
                      const fusion::FusionOptions &fusion, bool f64Moments = true);

//===----------------------------------------------------------------------===//
// The named pipelines' options: the fusion switches with the names and
// values of kf-form-kernels' options, so that `--kf-gpu-pipeline=
// row-persistent=false` means what `kfuse-compile --fusion=row-persistent=
// false` does.
//===----------------------------------------------------------------------===//

template <typename Derived>
struct FusionPipelineOptions : mlir::PassPipelineOptions<Derived> {
  template <typename T>
  using Option = mlir::detail::PassOptions::Option<T>;

  Option<fusion::FusionMode> fusion{
      *this, "fusion", llvm::cl::desc("on: fused kernels; off: eager (one per op)"),
      llvm::cl::init(fusion::FusionMode::On),
      llvm::cl::values(clEnumValN(fusion::FusionMode::On, "on", "fused kernels"),
                       clEnumValN(fusion::FusionMode::Off, "off",
                                  "eager: one kernel per op"))};
  Option<std::string> maxOps{*this, "max-ops",
                             llvm::cl::desc("most ops in one kernel (0: no limit)"),
                             llvm::cl::init("0")};
  Option<std::string> attentionMinScores{
      *this, "attention-min-scores",
      llvm::cl::desc("least bytes of scores for an attention kernel (empty: the target's "
                     "default, 0 on the GPU, 1 GiB on the host runtime)"),
      llvm::cl::init("")};
#define FUSION_RULE(Enum, field, name, description)                           \
  Option<bool> field{*this, name, llvm::cl::desc(description), llvm::cl::init(true)};
#include "passes/fusion/FusionRules.def"

  /// The switches, or failure (told to `refuse`) for a bad max-ops.
  mlir::FailureOr<fusion::FusionOptions>
  fusionOptions(llvm::function_ref<void(const llvm::Twine &)> refuse) const {
    if (!fusion::parseMaxOps(maxOps)) {
      refuse("max-ops must be a number of ops from 0 (no limit) to "
             "4294967295, got '" + maxOps + "'");
      return mlir::failure();
    }
    if (!fusion::parseAttentionMinScores(attentionMinScores)) {
      refuse("attention-min-scores must be a number of bytes, got '" +
             attentionMinScores + "'");
      return mlir::failure();
    }
    return fusion::readFusionOptions(*this);
  }
};

/// The fusion switches and the block size: kf-host-runtime-pipeline (no
/// chip: it emits no PTX) and kf-gpu-emulation-pipeline.
struct HostPipelineOptions : FusionPipelineOptions<HostPipelineOptions> {
  Option<unsigned> blockSize{*this, "block-size",
                             llvm::cl::desc("threads per block"),
                             llvm::cl::init(256)};
  Option<unsigned> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("the CPU's vector registers: 256, or 512 (AVX-512 F and VL, whose "
                     "vscalefps exp uses too; kfuse-compile sets it from the CPU it "
                     "compiles for)"),
      llvm::cl::init(256)};
};

/// kf-gpu-pipeline: the fusion switches, the chip and the block size.
struct GpuPipelineOptions : FusionPipelineOptions<GpuPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("GPU chip (sm_75 .. sm_90)"),
                           llvm::cl::init(gpu::kDefaultChip)};
  Option<unsigned> blockSize{*this, "block-size",
                             llvm::cl::desc("threads per block"),
                             llvm::cl::init(256)};
  Option<bool> tf32{*this, "tf32",
                    llvm::cl::desc("f32 matmuls on tensor cores as TF32 (kfuse-compile --tf32)"),
                    llvm::cl::init(false)};
  Option<std::string> matmulTiles{
      *this, "matmul-tiles",
      llvm::cl::desc("every tensor-core matmul's tiles, MxNxK/WMxWN/STAGES[/GROUP_M] "
                     "(kfuse-compile --matmul-tiles); empty: the table"),
      llvm::cl::init("")};
};

/// kf-cpu-pipeline: the fusion switches.
struct CpuPipelineOptions : FusionPipelineOptions<CpuPipelineOptions> {
  Option<bool> f64Moments{
      *this, "f64-moments",
      llvm::cl::desc("moments of layer_norm, rms_norm, var, std in f64 (false: f32, as the GPU)"),
      llvm::cl::init(true)};
};

/// Registers a pipeline whose textual options (`CLOptions`) become checked
/// PipelineOptions through `toOptions`; a refusal is reported where the
/// pipeline is parsed (kfuse-opt's command line, a textual pipeline) and
/// the pipeline is not built.
template <typename CLOptions>
void registerPipeline(
    llvm::StringRef name, llvm::StringRef description,
    std::function<mlir::FailureOr<PipelineOptions>(
        const CLOptions &, llvm::function_ref<void(const llvm::Twine &)>)>
        toOptions,
    std::function<void(mlir::OpPassManager &, const PipelineOptions &)> build) {
  mlir::registerPassPipeline(
      name, description,
      [toOptions, build](mlir::OpPassManager &pm, llvm::StringRef text,
                         llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)>
                             errorHandler) -> mlir::LogicalResult {
        CLOptions cl;
        if (mlir::failed(cl.parseFromString(text)))
          return mlir::failure();
        mlir::FailureOr<PipelineOptions> options =
            toOptions(cl, [&](const llvm::Twine &why) { (void)errorHandler(why); });
        if (mlir::failed(options))
          return mlir::failure();
        build(pm, *options);
        return mlir::success();
      },
      [](llvm::function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(CLOptions());
      });
}

/// Checked PipelineOptions from the fusion switches and block size of a
/// named pipeline's textual options, for `target` and `chip`.
mlir::FailureOr<PipelineOptions>
toPipelineOptions(mlir::FailureOr<fusion::FusionOptions> fusion,
                  unsigned blockSize, Target target, llvm::StringRef chip,
                  llvm::function_ref<void(const llvm::Twine &)> refuse);

/// The same, from the options of kf-host-runtime-pipeline (and the
/// emulation's): the default chip.
inline mlir::FailureOr<PipelineOptions>
toPipelineOptions(const HostPipelineOptions &cl, Target target,
                  llvm::function_ref<void(const llvm::Twine &)> refuse) {
  mlir::FailureOr<PipelineOptions> options = toPipelineOptions(
      cl.fusionOptions(refuse), cl.blockSize, target, gpu::kDefaultChip, refuse);
  if (mlir::failed(options))
    return mlir::failure();
  options->hostVectorBits = cl.vectorBits;
  return checkPipelineOptions(*options, refuse);
}

} // namespace kfuse

#endif // KFUSE_PASSES_PIPELINES_PIPELINES_H
