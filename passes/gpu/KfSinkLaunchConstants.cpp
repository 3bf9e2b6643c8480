//===- KfSinkLaunchConstants.cpp - constants cloned into the launches ----===//
//
// Upstream's gpu-launch-sink-index-computations sinks constants too, but
// it redirects a value's uses inside a launch by a walk of all the value's
// uses (replaceAllUsesInRegionWith): a constant that canonicalization
// shares among N launches (a chain of N relus: 0, 1 and the sizes) costs N
// per launch, N^2 in all (2,000 launches: 10 s). Here each launch walks its
// own body once, so the work is the size of the bodies; upstream's pass,
// which runs next, is left the index computations (memref.dim, compares,
// selects), which few launches share.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace kfuse {
#define GEN_PASS_DEF_KFSINKLAUNCHCONSTANTS
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

/// Clones each constant defined outside `launch` and used in its body into
/// the body's entry block, once, and points the body's uses at the clone.
void sinkConstants(gpu::LaunchOp launch) {
  Region &body = launch.getBody();
  OpBuilder b = OpBuilder::atBlockBegin(&body.front());
  llvm::DenseMap<Value, Value> inside;
  body.walk([&](Operation *op) {
    for (OpOperand &use : op->getOpOperands()) {
      Value v = use.get();
      Operation *def = v.getDefiningOp();
      if (!def || body.isAncestor(v.getParentRegion()) ||
          !def->hasTrait<OpTrait::ConstantLike>() || def->getNumResults() != 1)
        continue;
      Value &copy = inside[v];
      if (!copy)
        copy = b.clone(*def)->getResult(0);
      use.set(copy);
    }
  });
}

struct KfSinkLaunchConstantsPass
    : kfuse::impl::KfSinkLaunchConstantsBase<KfSinkLaunchConstantsPass> {
  void runOnOperation() override { getOperation()->walk(sinkConstants); }
};

} // namespace
