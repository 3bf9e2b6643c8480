//===- KfAssignKernelMappings.cpp - decide how each kernel is launched ----===//
//
// The one analysis of a kernel for the GPU: on tensors, right after kernel
// formation, each kf.kernel's ops are checked against the mappings and the
// one that serves it is stored on the kernel (`mapping`, a KernelMapping).
// Nothing later decides again: kf-map-kernels-to-gpu builds the launch the
// mapping names. A kernel no mapping serves is refused here, with its name
// and the reason, or (serial-fallback, host runtime) runs as one serial
// launch.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"
#include "passes/target/GpuTarget.h"
#include "passes/gpu/KernelMapping.h"
#include "passes/gpu/attention/AttentionKernels.h"
#include "passes/gpu/matmul/MatmulKernels.h"
#include "passes/gpu/matmul/MatmulTiles.h"
#include "passes/gpu/flat/PointwiseKernels.h"
#include "passes/gpu/rows/RowKernels.h"
#include "passes/launch/ScanKernels.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "kf-assign-kernel-mappings"

namespace kfuse {
#define GEN_PASS_DEF_KFASSIGNKERNELMAPPINGS
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;
using kfuse::kf::KernelKind;
using kfuse::kf::KernelMapping;
using kfuse::kf::KernelOp;

FailureOr<KernelMapping>
kfuse::gpu::decideKernelMapping(KernelOp kernel, ArrayRef<linalg::LinalgOp> ops,
                                function_ref<InFlightDiagnostic()> refuse) {
  switch (kernel.getKind()) {
  case KernelKind::Reduction: {
    // A prefix scan (kf.cumsum) runs alone, a thread a line: its kernel
    // holding anything else is refused, and formed again without it.
    if (kfuse::launch::holdsScan(ops)) {
      if (kfuse::launch::matchScanKernel(ops))
        return KernelMapping::Scan;
      refuse() << "a prefix scan (kf.cumsum) is a kernel of its own: the scan mapping "
                  "walks each line in order, and runs nothing else";
      return failure();
    }
    // Reductions of a few static elements each, not read back over them
    // (kf-form-kernels' small-reduction rule): a thread per result.
    {
      // Dropped, so not attached to the kernel: attaching prints the op,
      // numbering every value of its function (quadratic in the kernels).
      ScopedDiagnosticHandler quiet(kernel.getContext(),
                                    [](Diagnostic &) { return success(); });
      auto quietRefuse = [&]() { return mlir::emitError(kernel.getLoc()); };
      if (succeeded(kfuse::gpu::checkFlatKernel(kernel, ops, quietRefuse)))
        return KernelMapping::Flat;
    }
    // Reductions of one tensor over its rows and over its columns
    // (kf-form-kernels' multi-reduction rule): a band of rows a block.
    if (kfuse::gpu::matchMultiReduction(ops))
      return KernelMapping::MultiReduction;
    FailureOr<kfuse::gpu::RowLaunch> launch = kfuse::gpu::checkRowKernel(ops, refuse);
    if (failed(launch))
      return failure();
    switch (*launch) {
    case kfuse::gpu::RowLaunch::BlockPerRow: return KernelMapping::Row;
    case kfuse::gpu::RowLaunch::GridReduction: return KernelMapping::GridReduction;
    case kfuse::gpu::RowLaunch::RowChain: return KernelMapping::RowChain;
    }
    llvm_unreachable("a row launch without a mapping");
  }
  case KernelKind::Matmul:
    if (failed(kfuse::gpu::checkMatmulKernel(ops, refuse)))
      return failure();
    return KernelMapping::Matmul;
  case KernelKind::Attention:
    if (failed(kfuse::gpu::checkAttentionKernel(ops, refuse)))
      return failure();
    return KernelMapping::Attention;
  case KernelKind::Pointwise:
  case KernelKind::Transpose:
    // A transpose kernel is a generic reading its input permuted (see
    // runOnOperation): the flat mapping computes an element a thread.
    if (failed(kfuse::gpu::checkFlatKernel(kernel, ops, refuse)))
      return failure();
    return KernelMapping::Flat;
  }
  llvm_unreachable("a kernel kind without a mapping");
}

FailureOr<KernelMapping>
kfuse::gpu::queryKernelMapping(KernelOp kernel, ArrayRef<linalg::LinalgOp> ops,
                               std::string &refusal) {
  // The checks stream their reason into a diagnostic (for this pass's
  // errors); here it is caught as it is emitted and kept as the value.
  // Emitted at the kernel's location, not attached to it: attaching prints
  // the op, numbering every value of its function.
  ScopedDiagnosticHandler capture(kernel.getContext(), [&](Diagnostic &d) {
    if (refusal.empty())
      refusal = d.str();
    return success();
  });
  return decideKernelMapping(kernel, ops,
                             [&] { return mlir::emitError(kernel.getLoc()); });
}

namespace {
using kfuse::gpu::decideKernelMapping;

struct KfAssignKernelMappingsPass
    : kfuse::impl::KfAssignKernelMappingsBase<KfAssignKernelMappingsPass> {
  using Base::Base;

  /// The pipelines hand the pass the target they checked
  /// (checkPipelineOptions); kfuse-opt's `chip` is checked here.
  std::optional<kfuse::gpu::GpuTarget> checkedTarget;
  kfuse::gpu::GpuTarget target;
  kfuse::gpu::MatmulDesign design = kfuse::gpu::MatmulDesign::Fastest;
  /// `matmul-tiles`, parsed: every tensor-core matmul's tiles (null: the
  /// table's).
  kfuse::kf::MatmulTilesAttr userTiles;

  LogicalResult initialize(MLIRContext *ctx) override {
    if (!matmulTiles.empty()) {
      std::string why;
      FailureOr<kfuse::kf::MatmulTilesAttr> parsed = kfuse::gpu::parseMatmulTiles(
          ctx, matmulTiles, [&](const Twine &t) { why = t.str(); });
      if (failed(parsed))
        return emitError(UnknownLoc::get(ctx)) << "kf-assign-kernel-mappings: " << why;
      userTiles = *parsed;
    }
    if (matmul != "fastest" && matmul != "reference")
      return emitError(UnknownLoc::get(ctx))
             << "kf-assign-kernel-mappings: matmul must be `fastest` or "
                "`reference`, got `"
             << matmul << "`";
    design = matmul == "reference" ? kfuse::gpu::MatmulDesign::Reference
                                   : kfuse::gpu::MatmulDesign::Fastest;
    if (checkedTarget) {
      target = *checkedTarget;
      return success();
    }
    std::string why;
    FailureOr<kfuse::gpu::GpuTarget> built =
        kfuse::gpu::gpuTargetOf(chip, [&](const Twine &t) { why = t.str(); });
    if (failed(built))
      return emitError(UnknownLoc::get(ctx)) << "kf-assign-kernel-mappings: " << why;
    target = *built;
    return success();
  }

  void runOnOperation() override {
    // linalg.transpose as the generic it stands for, so that the flat
    // mapping can serve it.
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](linalg::TransposeOp op) {
      if (!op->getParentOfType<KernelOp>())
        return;
      std::string eagerOp = kfuse::kf::getEagerOpName(op).str();
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generic = linalg::generalizeNamedOp(rewriter, op);
      if (succeeded(generic) && !eagerOp.empty())
        kfuse::kf::setEagerOpName(*generic, eagerOp);
    });
    auto result = getOperation()->walk([&](KernelOp kernel) {
      SmallVector<linalg::LinalgOp> ops;
      kernel.getBody().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
      // A refusal the serial fallback drops is made without the kernel
      // attached (see the reduction's flat check above).
      auto refuse = [&]() {
        InFlightDiagnostic diag = serialFallback ? mlir::emitError(kernel.getLoc())
                                                 : kernel.emitError();
        return std::move(diag << "kernel '" << kernel.getSymName() << "' ("
                              << kfuse::kf::stringifyKernelKind(kernel.getKind())
                              << ", " << ops.size()
                              << " linalg ops) cannot be mapped to the GPU yet: ");
      };
      FailureOr<KernelMapping> mapping = failure();
      if (serialFallback) {
        // The host runtime runs kernels no mapping serves as one serial
        // launch; the refusal is no error there.
        ScopedDiagnosticHandler quiet(kernel.getContext(),
                                      [](Diagnostic &) { return success(); });
        mapping = decideKernelMapping(kernel, ops, refuse);
        if (failed(mapping))
          mapping = KernelMapping::Serial;
      } else if (failed(mapping = decideKernelMapping(kernel, ops, refuse))) {
        return WalkResult::interrupt();
      }
      LLVM_DEBUG(llvm::dbgs() << "kernel '" << kernel.getSymName() << "': "
                              << kfuse::kf::stringifyKernelMapping(*mapping) << "\n");
      kernel.setMapping(*mapping);
      // The design too, once: the emitters build what it names. The host
      // runtime runs its own matmul (HostMatmul.cpp) and its rows a thread
      // a row: it records none.
      if (*mapping == KernelMapping::Matmul && !serialFallback) {
        kfuse::kf::KernelVariant variant =
            kfuse::gpu::chooseMatmulVariant(ops, target, design, tf32);
        kernel.setVariant(variant);
        // The tensor-core kernel's strategy, chosen here once.
        if (variant == kfuse::kf::KernelVariant::TensorCore) {
          FailureOr<kfuse::kf::MatmulTilesAttr> tiles = kfuse::gpu::chooseTensorCoreTiles(
              ops, target, userTiles, [&](const Twine &why) { refuse() << why; });
          if (failed(tiles))
            return WalkResult::interrupt();
          kernel.setTilesAttr(*tiles);
        }
      }
      if ((*mapping == KernelMapping::Row || *mapping == KernelMapping::RowChain) &&
          !serialFallback)
        kernel.setVariant(kfuse::gpu::chooseRowVariant(ops));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass>
kfuse::gpu::createKfAssignKernelMappings(const KfAssignKernelMappingsOptions &options,
                                         const GpuTarget &target) {
  KfAssignKernelMappingsOptions withChip = options;
  withChip.chip = target.chip(); // as the pass prints in a pipeline
  auto pass = std::make_unique<KfAssignKernelMappingsPass>(withChip);
  pass->checkedTarget = target;
  return pass;
}
