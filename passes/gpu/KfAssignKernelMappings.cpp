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
#include "passes/gpu/MatmulKernels.h"
#include "passes/gpu/RowKernels.h"

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

namespace {

/// Whether the flat mapping serves `ops`: pointwise linalg.generics over one
/// iteration space (same result shape), each reading the others' results
/// only at the element it computes (identity maps), so that one thread can
/// run them one after the other for its element.
LogicalResult checkFlatKernel(KernelOp kernel, ArrayRef<linalg::LinalgOp> ops,
                              function_ref<InFlightDiagnostic()> refuse) {
  if (ops.empty())
    return refuse() << "it holds no linalg op";
  ArrayRef<int64_t> shape;
  bool first = true;
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || generic.getNumReductionLoops() != 0)
      return refuse() << "it holds a " << op->getName().getStringRef();
    for (OpOperand &init : generic.getDpsInitsMutable()) {
      auto type = cast<RankedTensorType>(init.get().getType());
      if (!generic.getMatchingIndexingMap(&init).isIdentity())
        return refuse() << "a result is not written in iteration order";
      if (!first && shape != type.getShape())
        return refuse() << "its ops iterate over different shapes";
      shape = type.getShape();
      first = false;
    }
    for (OpOperand *input : generic.getDpsInputOperands()) {
      Operation *def = input->get().getDefiningOp();
      if (def && def->getParentOp() == kernel && isa<linalg::LinalgOp>(def) &&
          !generic.getMatchingIndexingMap(input).isIdentity())
        return refuse() << "an op reads another's result at other elements";
    }
  }
  return success();
}

/// The mapping that serves `kernel`, or a refusal (reported through
/// `refuse`).
FailureOr<KernelMapping> decide(KernelOp kernel, ArrayRef<linalg::LinalgOp> ops,
                                function_ref<InFlightDiagnostic()> refuse) {
  switch (kernel.getKind()) {
  case KernelKind::Reduction: {
    FailureOr<kfuse::gpu::RowLaunch> launch = kfuse::gpu::checkRowKernel(ops, refuse);
    if (failed(launch))
      return failure();
    return *launch == kfuse::gpu::RowLaunch::TwoStage ? KernelMapping::TwoStage
                                                      : KernelMapping::Row;
  }
  case KernelKind::Matmul:
    if (failed(kfuse::gpu::checkMatmulKernel(ops, refuse)))
      return failure();
    return KernelMapping::Matmul;
  case KernelKind::Pointwise:
  case KernelKind::Transpose:
    // A transpose kernel is a generic reading its input permuted (see
    // runOnOperation): the flat mapping computes an element a thread.
    if (failed(checkFlatKernel(kernel, ops, refuse)))
      return failure();
    return KernelMapping::Flat;
  }
  llvm_unreachable("a kernel kind without a mapping");
}

struct KfAssignKernelMappingsPass
    : kfuse::impl::KfAssignKernelMappingsBase<KfAssignKernelMappingsPass> {
  using Base::Base;

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
      auto refuse = [&]() {
        return kernel.emitError("kernel '")
               << kernel.getSymName() << "' ("
               << kfuse::kf::stringifyKernelKind(kernel.getKind()) << ", "
               << ops.size() << " linalg ops) cannot be mapped to the GPU yet: ";
      };
      FailureOr<KernelMapping> mapping = failure();
      if (serialFallback) {
        // The host runtime runs kernels no mapping serves as one serial
        // launch; the refusal is no error there.
        ScopedDiagnosticHandler quiet(kernel.getContext(),
                                      [](Diagnostic &) { return success(); });
        mapping = decide(kernel, ops, refuse);
        if (failed(mapping))
          mapping = KernelMapping::Serial;
      } else if (failed(mapping = decide(kernel, ops, refuse))) {
        return WalkResult::interrupt();
      }
      LLVM_DEBUG(llvm::dbgs() << "kernel '" << kernel.getSymName() << "': "
                              << kfuse::kf::stringifyKernelMapping(*mapping) << "\n");
      kernel.setMapping(*mapping);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
