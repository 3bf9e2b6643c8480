//===- KfInlineKernels.cpp - splice kf.kernel bodies into their parent ----===//
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"

namespace kfuse {
#define GEN_PASS_DEF_KFINLINEKERNELS
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {
struct KfInlineKernelsPass
    : kfuse::impl::KfInlineKernelsBase<KfInlineKernelsPass> {
  void runOnOperation() override {
    SmallVector<kfuse::kf::KernelOp> kernels;
    getOperation()->walk([&](kfuse::kf::KernelOp k) { kernels.push_back(k); });
    IRRewriter rewriter(&getContext());
    for (kfuse::kf::KernelOp kernel : kernels) {
      Block &body = kernel.getBody().front();
      auto yield = cast<kfuse::kf::YieldOp>(body.getTerminator());
      SmallVector<Value> values(yield.getValues());
      rewriter.eraseOp(yield);
      rewriter.inlineBlockBefore(&body, kernel);
      rewriter.replaceOp(kernel, values);
    }
    kfuse::kf::removeBoundaries(getOperation()); // between kernels now gone
  }
};
} // namespace
