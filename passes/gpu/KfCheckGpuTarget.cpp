//===- KfCheckGpuTarget.cpp - refuse unsupported chips early --------------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "passes/gpu/GpuTarget.h"

#define DEBUG_TYPE "kf-check-gpu-target"

namespace kfuse {
#define GEN_PASS_DEF_KFCHECKGPUTARGET
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {
struct KfCheckGpuTargetPass
    : kfuse::impl::KfCheckGpuTargetBase<KfCheckGpuTargetPass> {
  using Base::Base;
  LogicalResult initialize(MLIRContext *ctx) override {
    if (auto error = kfuse::gpu::checkChip(chip))
      return emitError(UnknownLoc::get(ctx)) << *error;
    return success();
  }
  void runOnOperation() override {}
};
} // namespace
