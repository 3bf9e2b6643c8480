//===- KfTagGpuKernels.cpp - name the op each GPU kernel runs -------------===//
#include "passes/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#define DEBUG_TYPE "kf-tag-gpu-kernels"

namespace kfuse {
#define GEN_PASS_DEF_KFTAGGPUKERNELS
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {
/// A kernel the flat GPU mapping serves: pointwise linalg.generics over one
/// iteration space (same result shape), each reading the others' results
/// only at the element it computes (identity maps), so that one thread can
/// run them one after the other for its element.
LogicalResult check(kfuse::kf::KernelOp kernel) {
  SmallVector<linalg::LinalgOp> ops;
  kernel.getBody().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
  auto refuse = [&](const Twine &why) {
    return kernel.emitError("kernel '")
           << kernel.getSymName() << "' (" << kernel.getKind() << ", "
           << ops.size() << " linalg ops) cannot be mapped to the GPU yet: "
           << why;
  };
  if (kernel.getKind() != "pointwise")
    return refuse("only pointwise kernels are");
  Type shape;
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || generic.getNumReductionLoops() != 0)
      return refuse("it holds a " + op->getName().getStringRef().str());
    for (OpOperand &init : generic.getDpsInitsMutable()) {
      auto type = cast<RankedTensorType>(init.get().getType());
      if (!generic.getMatchingIndexingMap(&init).isIdentity())
        return refuse("a result is not written in iteration order");
      if (shape && cast<RankedTensorType>(shape).getShape() != type.getShape())
        return refuse("its ops iterate over different shapes");
      shape = type;
    }
    for (OpOperand *input : generic.getDpsInputOperands()) {
      Operation *def = input->get().getDefiningOp();
      if (def && def->getParentOp() == kernel && isa<linalg::LinalgOp>(def) &&
          !generic.getMatchingIndexingMap(input).isIdentity())
        return refuse("an op reads another's result at other elements");
    }
  }
  if (ops.empty())
    return refuse("it holds no linalg op");
  return success();
}

struct KfTagGpuKernelsPass
    : kfuse::impl::KfTagGpuKernelsBase<KfTagGpuKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    auto result = getOperation()->walk([&](kfuse::kf::KernelOp kernel) {
      bool serial = false;
      if (serialFallback) {
        // The host runtime runs kernels the flat mapping cannot serve as
        // one serial launch; the check's message is not an error there.
        ScopedDiagnosticHandler quiet(kernel.getContext(),
                                      [](Diagnostic &) { return success(); });
        serial = failed(check(kernel));
      } else if (failed(check(kernel))) {
        return WalkResult::interrupt();
      }
      kernel.getBody().walk([&](linalg::LinalgOp op) {
        op->setAttr("kf.kernel", kernel.getSymNameAttr());
        if (serial)
          op->setAttr("kf.serial", UnitAttr::get(op->getContext()));
      });
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
