//===- Pipelines.cpp - kfuse's pipelines, built from one options struct ---===//
//
// Each stage is a list of passes added in C++ with their options structs
// (see Pipelines.h); the named pipelines registered here build the same
// lists, so kfuse-opt replays exactly what kfuse-compile runs.
//
//===----------------------------------------------------------------------===//
#include "passes/pipelines/Pipelines.h"
#include "passes/Passes.h"
#include "passes/fusion/KfFormKernels.h"
#include "passes/gpu/KernelMapping.h"
#include "passes/gpu/matmul/MatmulTiles.h"
#include "dialect/Kf/KfDialect.h"
#include "passes/report/KernelReport.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace kfuse;

FailureOr<PipelineOptions>
kfuse::checkPipelineOptions(PipelineOptions options,
                            llvm::function_ref<void(const llvm::Twine &)> refuse) {
  if (options.blockSize == 0 || options.blockSize > 1024 ||
      options.blockSize % 32 != 0) {
    refuse("block-size must be a multiple of 32 from 32 to 1024, got " +
           llvm::Twine(options.blockSize));
    return failure();
  }
  if (options.hostVectorBits != 256 && options.hostVectorBits != 512) {
    refuse("vector-bits must be 256 or 512, got " + llvm::Twine(options.hostVectorBits));
    return failure();
  }
  if (!options.matmulTiles.empty()) {
    // Checked here once, with the kf dialect's own rules for the attribute.
    MLIRContext ctx;
    ctx.loadDialect<kf::KfDialect>();
    if (failed(gpu::parseMatmulTiles(&ctx, options.matmulTiles, refuse)))
      return failure();
  }
  return options;
}

/// Integer pow (math.ipowi) as a function, which the LLVM dialect lacks.
static std::unique_ptr<Pass> createMathToFuncs() {
  ConvertMathToFuncsOptions options;
  options.convertCtlz = false;
  return createConvertMathToFuncs(options);
}

/// scf to cf without the conversion driver's rollback: each loop lowered
/// splits its block, moving every op after it, and with rollback on each
/// move is recorded until the pass ends, so memory grows with the square of
/// the loops in a block (a fused kernel of 1,000 ops: 1.6 GB, against
/// 0.2 GB without; the same IR). Its patterns match on the op alone and
/// succeed once they rewrite, so there is nothing to roll back.
static std::unique_ptr<Pass> createScfToCf() {
  SCFToControlFlowPassOptions options;
  options.allowPatternRollback = false;
  return createSCFToControlFlowPass(options);
}

/// Bufferization across function boundaries with identity layouts.
static std::unique_ptr<Pass> createBufferize() {
  bufferization::OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = true;
  options.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  return bufferization::createOneShotBufferizePass(options);
}

// The passes of Passes.h whose policy is the GPU's: the kernels they form
// are the ones its mappings serve.
std::unique_ptr<Pass> kfuse::createKfFormKernels(const KfFormKernelsOptions &options) {
  return fusion::createKfFormKernels(options, gpu::queryKernelMapping);
}

std::unique_ptr<Pass> kfuse::createKfKernelReport(const KfKernelReportOptions &options) {
  return report::createKfKernelReport(options, gpu::queryKernelMapping);
}

void kfuse::addCpuLoweringPasses(OpPassManager &pm, bool dealloc, bool gpuHost, bool x86Scalef) {
  if (dealloc) {
    addDeallocationPasses(pm);
    pm.addPass(createConvertBufferizationToMemRefPass()); // its clones
  }
  // tanh and expm1 in f64 arithmetic (libm's tanhf is 2.2 ulp off; upstream
  // lowers expm1 to exp(x) - 1), before anything lowers math ops.
  KfHostMathOptions math;
  math.x86Scalef = x86Scalef;
  pm.addPass(createKfHostMath(math));
  pm.addPass(createKfCompensatedSums());
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createKfExpandShapeStrides()); // upstream's next pass crashes on some
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createScfToCf());
  // A vector.transpose (the host's transposes, 8 x 8 blocks in registers)
  // as one shufflevector, which LLVM's x86 backend turns into unpack and
  // permute instructions; the default, element by element, is 64 extracts
  // and inserts.
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.vectorTransposeLowering = vector::VectorTransposeLowering::Shuffle1D;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  // The math ops the LLVM dialect lacks (erf, tanh, ipowi) as libm calls
  // or functions.
  pm.addPass(createMathToFuncs());
  // log1p stays math.log1p for libm's log1p (upstream's default writes
  // log(1 + x), which loses small x).
  ConvertMathToLLVMPassOptions mathToLLVM;
  mathToLLVM.approximateLog1p = false;
  pm.addPass(createConvertMathToLLVMPass(mathToLLVM));
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  if (gpuHost)
    pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// kf-to-linalg for `target`: on the CPU, layer_norm's, rms_norm's, var's
/// and std's moments of f32 are taken in f64, as PyTorch's CPU var does;
/// the GPU keeps f32, as PyTorch's CUDA kernels.
static std::unique_ptr<Pass> createKfToLinalgFor(Target target,
                                                 const fusion::FusionOptions &fusion) {
  KfToLinalgOptions options;
  options.mergeReductions = fusion::mergesReductions(fusion);
  options.f64Moments = target == Target::Host;
  return createKfToLinalg(options);
}

void kfuse::buildCpuPipeline(OpPassManager &pm, const fusion::FusionOptions &fusion,
                             bool f64Moments) {
  KfToLinalgOptions toLinalg;
  toLinalg.f64Moments = f64Moments;
  toLinalg.mergeReductions = fusion::mergesReductions(fusion);
  pm.addPass(createKfToLinalg(toLinalg));
  pm.addPass(createKfFormKernels(fusion::toPassOptions(fusion)));
  pm.addPass(createKfInlineKernels());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createBufferize());
  pm.addPass(createKfOrderConstantGlobals()); // upstream's order varies
  addCpuLoweringPasses(pm, /*dealloc=*/true, /*gpuHost=*/false);
}

void kfuse::addLaunchPasses(OpPassManager &pm, const PipelineOptions &options) {
  addGpuMappingPasses(pm, options);
  pm.addPass(createConvertBufferizationToMemRefPass());
  // Outlining copies the function into the kernel module.
  pm.addPass(createMathToFuncs());
}

/// Device code to NVVM and PTX text (gpu-module-to-binary, format isa),
/// with 64-bit indices so that more than 2^31 elements are addressable.
static void addPtxPasses(OpPassManager &pm, const PipelineOptions &options) {
  // Kernels of the same code (an eager program's many adds) compiled once.
  pm.addPass(createKfShareKernelCode());
  pm.addPass(createLowerAffinePass());
  // The tensor-core matmuls' nvgpu ops (mma.sync, ldmatrix, cp.async; TMA,
  // mbarriers, wgmma) to NVVM first: convert-gpu-to-nvvm lowers only the
  // dialects whose to-LLVM interface is loaded, and would leave them; and
  // before the loops become blocks, whose arguments (a wgmma accumulator
  // carried by the K loop) the conversion does not retype.
  pm.addNestedPass<mlir::gpu::GPUModuleOp>(createConvertNVGPUToNVVMPass());
  pm.addPass(createScfToCf());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.gpu.chip();
  target.features = kfuse::gpu::kPtxFeatures;
  pm.addPass(createGpuNVVMAttachTarget(target));
  // Inputs a kernel only reads, which no output can alias, through
  // ld.global.nc (marked here, noalias added once lowered); a * b + c as
  // one fma.rn, as nvcc's default --fmad=true gives PyTorch's kernels.
  pm.addPass(createKfMarkReadOnlyArgs());
  pm.addPass(createKfContractFloatOps());
  pm.addPass(createKfKernelRegisterBudget());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.indexBitwidth = 64;
  pm.addNestedPass<mlir::gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(nvvm));
  // NVVM ops that LLVM has no intrinsic for (the mbarriers' try_wait
  // parity, wgmma's fences and waits) as inline PTX.
  pm.addNestedPass<mlir::gpu::GPUModuleOp>(createConvertNVVMToLLVMPass());
  pm.addPass(createKfMarkReadOnlyArgs(KfMarkReadOnlyArgsOptions{/*lowered=*/true}));
  pm.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  binary.toolkitPath = kfuse::gpu::cudaToolkitPath();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createKfAliasSharedKernels());
}

/// The host code of the GPU target: launches become mgpu* runtime calls.
static void addGpuHostPasses(OpPassManager &pm) {
  // The sm_90a matmul's TMA descriptors, made on the host
  // (nvgpu.tma.create.descriptor: mgpuTensorMapEncodeTiledMemref calls).
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createKfExpandShapeStrides()); // upstream's next pass crashes on some
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass()); // collapsed and expanded views' index math
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void kfuse::addStagePasses(OpPassManager &pm, Stage stage,
                           const PipelineOptions &options) {
  bool host = options.target == Target::Host;
  switch (stage) {
  case Stage::Linalg:
    pm.addPass(createKfToLinalgFor(options.target, options.fusion));
    return;
  case Stage::Kernels: {
    // The target's own attention default (FusionOptions.h says why).
    fusion::FusionOptions fusion = options.fusion;
    if (!fusion.attentionMinScores)
      fusion.attentionMinScores =
          host ? fusion::kHostAttentionMinScores : fusion::kGpuAttentionMinScores;
    pm.addPass(createKfFormKernels(fusion::toPassOptions(fusion)));
    // A known bug in the fused kernels, for the tests of kfuse-run --check.
    if (options.fusion.enabled && !options.mutation.empty())
      pm.addPass(createKfPlantMutation(KfPlantMutationOptions{options.mutation}));
    return;
  }
  case Stage::Gpu:
    // Each kernel becomes one gpu.launch named after it, then a gpu.func;
    // the host's buffers become device buffers, all on one stream.
    addLaunchPasses(pm, options);
    // Constants and index math (sizes, strides) move into the launches, so
    // the kernels see them as constants: relu's zero is an immediate of one
    // max, not a parameter whose NaN and signed-zero cases must be kept,
    // and a division by a static size is a multiply. Constants first, by
    // kfuse's linear-time pass (KfSinkLaunchConstants.cpp says why).
    pm.addPass(createKfSinkLaunchConstants());
    pm.addPass(createGpuLaunchSinkIndexComputationsPass());
    pm.addPass(createGpuKernelOutliningPass());
    pm.addPass(createKfDeviceBuffers());
    pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
    return;
  case Stage::Ptx:
    if (!host) // the host runtime's kernels are host functions
      addPtxPasses(pm, options);
    return;
  case Stage::Llvm:
    if (!host)
      return addGpuHostPasses(pm);
    // Kernels as host functions, launched with the same mgpu* calls; those
    // of the same code compiled once.
    pm.addPass(createKfShareKernelCode());
    pm.addPass(createKfHostKernels());
    pm.addPass(createKfAliasSharedKernels());
    addCpuLoweringPasses(pm, /*dealloc=*/false, /*gpuHost=*/true,
                         /*x86Scalef=*/options.hostVectorBits == 512);
    pm.addPass(createKfHostKernelAbi());
    return;
  }
}

void kfuse::buildPipeline(OpPassManager &pm, const PipelineOptions &options) {
  for (Stage stage :
       {Stage::Linalg, Stage::Kernels, Stage::Gpu, Stage::Ptx, Stage::Llvm})
    if (stage <= options.until)
      addStagePasses(pm, stage, options);
}

FailureOr<PipelineOptions>
kfuse::toPipelineOptions(FailureOr<fusion::FusionOptions> fusion,
                         unsigned blockSize, Target target, StringRef chip,
                         llvm::function_ref<void(const llvm::Twine &)> refuse) {
  if (failed(fusion))
    return failure();
  FailureOr<gpu::GpuTarget> gpu = gpu::gpuTargetOf(chip, refuse);
  if (failed(gpu))
    return failure();
  PipelineOptions options;
  options.fusion = *fusion;
  options.gpu = *gpu;
  options.blockSize = blockSize;
  options.target = target;
  return checkPipelineOptions(options, refuse);
}

void kfuse::registerKfusePipelines() {
  registerPipeline<GpuPipelineOptions>(
      "kf-gpu-pipeline",
      "Lower kf to NVVM/PTX (device) and LLVM with mgpu* calls (host): "
      "kernels, bufferization, one gpu.launch per kernel, outlining, PTX",
      [](const GpuPipelineOptions &cl, auto refuse) -> FailureOr<PipelineOptions> {
        FailureOr<PipelineOptions> options = toPipelineOptions(
            cl.fusionOptions(refuse), cl.blockSize, Target::Gpu, cl.chip.getValue(), refuse);
        if (failed(options))
          return failure();
        options->tf32 = cl.tf32;
        options->matmulTiles = cl.matmulTiles;
        return checkPipelineOptions(*options, refuse);
      },
      buildPipeline);
  registerPipeline<HostPipelineOptions>(
      "kf-host-runtime-pipeline",
      "Lower kf to LLVM for the host CPU through the kfuse runtime: the GPU "
      "pipeline's kernels become host functions run block by block, "
      "launched with the same mgpu* calls",
      [](const HostPipelineOptions &cl, auto refuse) {
        return toPipelineOptions(cl, Target::Host, refuse);
      },
      buildPipeline);
  registerPipeline<CpuPipelineOptions>(
      "kf-cpu-pipeline",
      "Lower kf to the LLVM dialect for the host CPU (kf-to-linalg, "
      "kf-form-kernels, one-shot bufferization, loops, LLVM)",
      [](const CpuPipelineOptions &cl, auto refuse) -> FailureOr<PipelineOptions> {
        FailureOr<fusion::FusionOptions> fusion = cl.fusionOptions(refuse);
        if (failed(fusion))
          return failure();
        PipelineOptions options;
        options.fusion = *fusion;
        options.f64Moments = cl.f64Moments;
        return options;
      },
      [](OpPassManager &pm, const PipelineOptions &options) {
        buildCpuPipeline(pm, options.fusion, options.f64Moments);
      });
}
