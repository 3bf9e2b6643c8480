//===- KfKernelRegisterBudget.cpp - registers a kernel's block size allows ===//
//
// ptxas, given only `.maxntid`, still caps a kernel's registers to reach an
// occupancy of its own choosing, and spills to get there: the f32 matmul's
// 256-thread, 4x4-outputs-a-thread tile needs 89 registers, gets 64 and
// spills 4 bytes (sm_80). `.minnctapersm 1` (NVVM's `nvvm.minctasm`) sets
// the occupancy floor at one block an SM, so the limit becomes what the
// block size allows (65536 / threads, at most 255). Set on every kernel
// rather than on the matmuls alone: the mapping already chose each
// kernel's block size and work per thread, and a kernel that needs few
// registers still gets few (ptxas does not pad). Upstream has no pass for
// this; the attribute is carried to the PTX by convert-gpu-to-nvvm.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace kfuse {
#define GEN_PASS_DEF_KFKERNELREGISTERBUDGET
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

struct KfKernelRegisterBudgetPass
    : kfuse::impl::KfKernelRegisterBudgetBase<KfKernelRegisterBudgetPass> {
  void runOnOperation() override {
    Builder b(&getContext());
    getOperation().walk([&](gpu::GPUFuncOp func) {
      // Without a known block size there is no .maxntid: ptxas then
      // assumes 1024 threads, and one block an SM is no hint at all.
      if (func.isKernel() && func.getKnownBlockSizeAttr())
        func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(), b.getI32IntegerAttr(1));
    });
  }
};

} // namespace
