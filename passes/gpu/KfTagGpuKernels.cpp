//===- KfTagGpuKernels.cpp - name the op each GPU kernel runs -------------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "passes/gpu/MatmulKernels.h"
#include "passes/gpu/RowKernels.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

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
/// A reduction kernel is served when it is a row kernel (RowKernels.h).
enum class Mapping { Flat, Row, Matmul };

FailureOr<Mapping> check(kfuse::kf::KernelOp kernel) {
  SmallVector<linalg::LinalgOp> ops;
  kernel.getBody().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
  auto refuse = [&](const Twine &why) -> FailureOr<Mapping> {
    return kernel.emitError("kernel '")
           << kernel.getSymName() << "' (" << kernel.getKind() << ", "
           << ops.size() << " linalg ops) cannot be mapped to the GPU yet: "
           << why;
  };
  if (kernel.getKind() == "reduction") {
    std::string why;
    if (!kfuse::gpu::isRowKernel(ops, why))
      return refuse(why);
    return Mapping::Row;
  }
  if (kernel.getKind() == "matmul") {
    std::string why;
    if (!kfuse::gpu::isMatmulKernel(ops, why))
      return refuse(why);
    return Mapping::Matmul;
  }
  // A transpose kernel is a generic reading its input permuted (see
  // runOnOperation): the flat mapping computes an element a thread.
  if (kernel.getKind() != "pointwise" && kernel.getKind() != "transpose")
    return refuse("only pointwise, transpose, reduction and matmul kernels are");
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
  return Mapping::Flat;
}

struct KfTagGpuKernelsPass
    : kfuse::impl::KfTagGpuKernelsBase<KfTagGpuKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    // linalg.transpose as the generic it stands for, so that the flat
    // mapping can serve it.
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](linalg::TransposeOp op) {
      if (!op->getParentOfType<kfuse::kf::KernelOp>())
        return;
      Attribute tag = op->getAttr("kf.op");
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generic = linalg::generalizeNamedOp(rewriter, op);
      if (succeeded(generic) && tag)
        (*generic)->setAttr("kf.op", tag);
    });
    auto result = getOperation()->walk([&](kfuse::kf::KernelOp kernel) {
      FailureOr<Mapping> mapping = failure();
      if (serialFallback) {
        // The host runtime runs kernels the GPU mappings cannot serve as
        // one serial launch; the check's message is not an error there.
        ScopedDiagnosticHandler quiet(kernel.getContext(),
                                      [](Diagnostic &) { return success(); });
        mapping = check(kernel);
      } else if (failed(mapping = check(kernel))) {
        return WalkResult::interrupt();
      }
      kernel.getBody().walk([&](linalg::LinalgOp op) {
        op->setAttr("kf.kernel", kernel.getSymNameAttr());
        if (failed(mapping))
          op->setAttr("kf.serial", UnitAttr::get(op->getContext()));
        else if (*mapping == Mapping::Row)
          op->setAttr("kf.row", UnitAttr::get(op->getContext()));
        else if (*mapping == Mapping::Matmul)
          op->setAttr("kf.matmul", UnitAttr::get(op->getContext()));
      });
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
