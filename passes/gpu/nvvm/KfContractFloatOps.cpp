//===- KfContractFloatOps.cpp - FMA contraction in the GPU kernels --------===//
//
// nvcc compiles PyTorch's CUDA kernels with its default `--fmad=true`, so
// `a * b + c` there is one `fma.rn` (one rounding instead of two). LLVM's
// NVPTX backend contracts only what it is allowed to: without a flag it
// emits `mul.rn` and `add.rn` (the `.rn` also stops ptxas from fusing).
// The `contract` fast-math flag on the kernels' float multiplies, adds,
// subtractions and divisions (LLVM rewrites a division by a power of two as
// a multiply, which then contracts as nvcc's would) allows exactly that and
// nothing more (no reassociation, no approximate
// division or functions). Set here on the arith ops of every gpu.module,
// before convert-gpu-to-nvvm (which carries the flag to llvm.fmul/fadd),
// rather than with NVPTX's global `-nvptx-fma-level` or the target's
// "fast" flag: only the device code changes, and the CPU pipelines (whose
// results some tests compare bit for bit with numpy) never run this pass.
// The emulation runs the launches before outlining, uncontracted: it
// differs from the GPU by at most an ulp per contracted operation.
//
// A compensated sum stays compensated: its error terms are `(t - s) - y`,
// subtractions of sums, never of a product; only `y = term - lost` can
// contract when the term is a product, which makes y more exact.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace kfuse {
#define GEN_PASS_DEF_KFCONTRACTFLOATOPS
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

template <typename OpTy> void allowContract(OpTy op) {
  arith::FastMathFlags flags = op.getFastmath();
  op.setFastmath(flags | arith::FastMathFlags::contract);
}

struct KfContractFloatOpsPass
    : kfuse::impl::KfContractFloatOpsBase<KfContractFloatOpsPass> {
  void runOnOperation() override {
    getOperation().walk([](gpu::GPUModuleOp module) {
      module.walk([](Operation *op) {
        if (auto mul = dyn_cast<arith::MulFOp>(op))
          allowContract(mul);
        else if (auto add = dyn_cast<arith::AddFOp>(op))
          allowContract(add);
        else if (auto sub = dyn_cast<arith::SubFOp>(op))
          allowContract(sub);
        else if (auto div = dyn_cast<arith::DivFOp>(op))
          allowContract(div); // a division by 2^k becomes a contractible multiply
      });
    });
  }
};

} // namespace
