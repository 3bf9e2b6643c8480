//===- KfHoistKernelBuffers.cpp - a kernel's buffers exist before it ------===//
//
// One-shot bufferization allocates each buffer where its tensor was made:
// inside the kf.kernel. Left there, upstream's ownership-based
// deallocation handles the kernel as a region branch (as it does
// scf.execute_region): it gives the kernel an i1 ownership result per
// memref result, frees the intermediates inside the region and clones
// results whose ownership it cannot prove (seen on a prototype with
// scf.execute_region: softmax and add+relu). A gpu.launch can neither
// allocate nor free. So, between bufferization and deallocation, each
// kernel's allocations move before it (with the index arithmetic their
// sizes need), its results are replaced by the buffers it yields, and it
// returns nothing. Deallocation then sees a region without results that
// allocates nothing: it frees every buffer after the kernel, never inside
// it and never between two of its ops, and clones nothing. The kernel is
// then exactly what its launch will be: code over buffers that exist.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kfuse {
#define GEN_PASS_DEF_KFHOISTKERNELBUFFERS
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;
using kfuse::kf::KernelOp;
using kfuse::kf::YieldOp;

namespace {

/// An op that only allocates (memref.alloc).
bool onlyAllocates(Operation *op) {
  return op->getNumRegions() == 0 &&
         hasSingleEffect<MemoryEffects::Allocate>(op);
}

/// Moves the allocations of `kernel` before it, then the kernel's results
/// become the buffers it yields.
LogicalResult hoistBuffers(KernelOp kernel, RewriterBase &rewriter) {
  Region &body = kernel.getBody();
  auto inside = [&](Value v) { return body.isAncestor(v.getParentRegion()); };
  // In order, so that an allocation's sizes (memref.dim, index arithmetic,
  // all side-effect free) move before it does; views of the buffers
  // (reshapes, casts) and constants follow.
  for (Operation &op : llvm::make_early_inc_range(body.front().without_terminator())) {
    bool movable = op.getNumRegions() == 0 &&
                   (isMemoryEffectFree(&op) || onlyAllocates(&op));
    if (movable && llvm::none_of(op.getOperands(), inside))
      rewriter.moveOpBefore(&op, kernel);
  }
  for (Operation &op : body.front())
    if (onlyAllocates(&op))
      return op.emitError("kernel '")
             << kernel.getSymName()
             << "' allocates a buffer whose size it computes itself: a "
                "launch cannot allocate";
  auto yield = cast<YieldOp>(body.front().getTerminator());
  for (Value v : yield.getValues())
    if (inside(v))
      return kernel.emitError("kernel '")
             << kernel.getSymName() << "' returns a buffer made inside it by "
             << v.getDefiningOp()->getName();
  SmallVector<Value> buffers(yield.getValues());
  rewriter.replaceAllUsesWith(kernel.getResults(), buffers);
  rewriter.modifyOpInPlace(yield, [&] { yield.getValuesMutable().clear(); });
  rewriter.setInsertionPoint(kernel);
  auto bare = KernelOp::create(rewriter, kernel.getLoc(), TypeRange(),
                               ValueRange(), kernel->getAttrs());
  rewriter.inlineRegionBefore(body, bare.getBody(), bare.getBody().end());
  rewriter.eraseOp(kernel);
  return success();
}

struct KfHoistKernelBuffersPass
    : kfuse::impl::KfHoistKernelBuffersBase<KfHoistKernelBuffersPass> {
  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation()->walk([&](KernelOp k) { kernels.push_back(k); });
    IRRewriter rewriter(&getContext());
    for (KernelOp kernel : kernels) {
      if (llvm::any_of(kernel.getResultTypes(),
                       [](Type t) { return isa<TensorType>(t); })) {
        kernel.emitError("kernel '")
            << kernel.getSymName()
            << "' is not bufferized: run one-shot-bufferize first";
        return signalPassFailure();
      }
      if (failed(hoistBuffers(kernel, rewriter)))
        return signalPassFailure();
    }
  }
};

} // namespace
