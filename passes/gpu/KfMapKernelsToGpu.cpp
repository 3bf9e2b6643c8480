//===- KfMapKernelsToGpu.cpp - each kernel as its CUDA launch --------------===//
//
// kf-map-kernels-to-gpu: the GPU's launcher for the shared mechanism
// (launch/KernelsToLaunches.h). Each mapping's emitter (flat/, rows/,
// matmul/) writes the launch's body for CUDA blocks of `block-size`
// threads (GpuLaunchTarget); the matmul as the variant
// kf-assign-kernel-mappings chose.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "passes/gpu/KfMapKernelsToGpu.h"
#include "passes/gpu/flat/PointwiseKernels.h"
#include "passes/gpu/matmul/MatmulKernels.h"
#include "passes/gpu/rows/RowKernels.h"
#include "passes/gpu/attention/AttentionKernels.h"
#include "passes/launch/KernelsToLaunches.h"
#include "passes/launch/ScanKernels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace kfuse {
#define GEN_PASS_DEF_KFMAPKERNELSTOGPU
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;
using kfuse::kf::KernelOp;

namespace {

constexpr llvm::StringLiteral kPass = "kf-map-kernels-to-gpu";

class GpuLauncher final : public kfuse::launch::KernelLauncher {
public:
  GpuLauncher(unsigned blockSize, unsigned vectorWidth)
      : target(blockSize), blockSize(blockSize), vectorWidth(vectorWidth) {}

  /// `vector-width` elements a thread; transposes in tiles.
  LogicalResult flat(RewriterBase &b, StringAttr name,
                     ArrayRef<linalg::GenericOp> ops) const override {
    return kfuse::gpu::mapPointwiseKernel(b, name, ops, blockSize, vectorWidth);
  }
  /// A block per row, on chip or through memory as the recorded variant
  /// says.
  LogicalResult row(RewriterBase &b, KernelOp kernel,
                    ArrayRef<linalg::LinalgOp> ops) const override {
    FailureOr<kfuse::kf::KernelVariant> variant = rowVariant(kernel);
    if (failed(variant))
      return failure();
    return success(succeeded(
        kfuse::gpu::mapRowKernel(b, kernel.getSymNameAttr(), ops, target, *variant)));
  }
  LogicalResult gridReduction(RewriterBase &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops,
                              FlatSymbolRefAttr ticket) const override {
    kfuse::gpu::mapGridReductionKernel(b, name, ops, target, ticket);
    return success();
  }
  LogicalResult rowChain(RewriterBase &b, KernelOp kernel, ArrayRef<linalg::LinalgOp> ops,
                         FlatSymbolRefAttr ticket) const override {
    FailureOr<kfuse::kf::KernelVariant> variant = rowVariant(kernel);
    if (failed(variant))
      return failure();
    return kfuse::gpu::mapRowChainKernel(b, kernel.getSymNameAttr(), ops, target, *variant,
                                         ticket);
  }
  /// Tiles of the result, as the recorded variant says.
  LogicalResult matmul(RewriterBase &b, KernelOp kernel,
                       ArrayRef<linalg::LinalgOp> ops) const override {
    std::optional<kfuse::kf::KernelVariant> variant = kernel.getVariant();
    if (!variant)
      return kernel.emitError() << kPass << ": matmul kernel '" << kernel.getSymName()
                                << "' has no variant (kf-assign-kernel-mappings chooses it)";
    kfuse::gpu::mapMatmulKernel(b, kernel.getSymNameAttr(), ops, target, *variant,
                                kernel.getTilesAttr());
    return success();
  }

  /// A tile of query rows a block, the keys' tiles staged in workgroup memory.
  LogicalResult attention(RewriterBase &b, StringAttr name,
                          ArrayRef<linalg::LinalgOp> ops) const override {
    return kfuse::gpu::mapAttentionKernel(b, name, ops, target);
  }

  /// A band of rows a block, the columns' partials finished by the last.
  LogicalResult multiReduction(RewriterBase &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops,
                               FlatSymbolRefAttr ticket) const override {
    return kfuse::gpu::mapMultiReductionKernel(b, name, ops, target, ticket);
  }

  /// A thread a line, floats summed compensated (launch/ScanKernels.h).
  LogicalResult scan(RewriterBase &b, StringAttr name,
                     ArrayRef<linalg::LinalgOp> ops) const override {
    return kfuse::launch::mapScanKernel(b, name, ops, target, kfuse::launch::ScanSum::Compensated);
  }

private:
  /// The form kf-assign-kernel-mappings chose for a row kernel's rows.
  static FailureOr<kfuse::kf::KernelVariant> rowVariant(KernelOp kernel) {
    std::optional<kfuse::kf::KernelVariant> variant = kernel.getVariant();
    if (!variant)
      return kernel.emitError() << kPass << ": row kernel '" << kernel.getSymName()
                                << "' has no variant (kf-assign-kernel-mappings chooses it)";
    return *variant;
  }

  kfuse::launch::GpuLaunchTarget target;
  unsigned blockSize, vectorWidth;
};

struct KfMapKernelsToGpuPass : kfuse::impl::KfMapKernelsToGpuBase<KfMapKernelsToGpuPass> {
  using Base::Base;

  /// Built by a pipeline from options it checked (checkPipelineOptions):
  /// nothing to check again.
  bool optionsChecked = false;

  LogicalResult initialize(MLIRContext *ctx) override {
    if (optionsChecked)
      return success();
    if (blockSize == 0 || blockSize > 1024 || blockSize % 32 != 0)
      return emitError(UnknownLoc::get(ctx))
             << kPass << ": block-size must be a multiple of 32 from 32 to 1024, got "
             << static_cast<unsigned>(blockSize);
    return success();
  }

  void runOnOperation() override {
    if (failed(kfuse::launch::mapKernelsToLaunches(
            getOperation(), kPass, GpuLauncher(blockSize, vectorWidth),
            {&numFlat, &numRow, &numGridReduction, &numMatmul, &numSerial, &numRowChain,
             &numAttention, &numMultiReduction, &numScan})))
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass>
kfuse::gpu::createCheckedKfMapKernelsToGpu(const KfMapKernelsToGpuOptions &options) {
  auto pass = std::make_unique<KfMapKernelsToGpuPass>(options);
  pass->optionsChecked = true;
  return pass;
}
