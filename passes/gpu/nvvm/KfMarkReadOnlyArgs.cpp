//===- KfMarkReadOnlyArgs.cpp - read-only kernel inputs through ld.global.nc ===//
//
// NVPTX loads through the non-coherent path (`ld.global.nc`, LDG: the
// read-only data cache) from a kernel parameter that is both `readonly` and
// `noalias`: nothing writes that memory while the kernel runs. MLIR's
// memref-to-LLVM lowering of a gpu.func copies `llvm.readonly` from a
// memref argument to the descriptor's two pointers, but drops `llvm.noalias`
// ("Cannot copy noalias with non-bare pointers": it cannot know that the
// allocated and the aligned pointer are used apart), and the bare-pointer
// convention needs static shapes. So the pass runs twice:
//
//  - before convert-gpu-to-nvvm, on the module (the host's launches and the
//    kernels): a kernel's memref argument is marked `llvm.readonly` when
//    the kernel never writes it and, at every launch of the kernel, it
//    cannot share memory with a buffer the kernel writes. The kernel gets
//    `kfuse.read_only_args`.
//  - after (`lowered`): in those kernels, the pointers that carry
//    `llvm.readonly` also get `llvm.noalias`.
//
// Why a kfuse buffer cannot alias: each kernel's outputs are buffers
// allocated for it (kf-hoist-kernel-buffers moves the kernel's own
// memref.alloc before it; kf-device-buffers makes them gpu.alloc), distinct
// from every live buffer, and its inputs are the function's arguments or
// other kernels' outputs. That is checked, not assumed: a written argument
// whose buffer is not a fresh allocation at some launch (a function
// argument written in place, a value of unknown origin) leaves every
// argument of that kernel unmarked, and an input that is a view of a
// written buffer (the same allocation) is not marked. All launches go on one
// stream (gpu-async-region), so no other kernel writes a buffer while this
// one reads it.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "kf-mark-read-only-args"

namespace kfuse {
#define GEN_PASS_DEF_KFMARKREADONLYARGS
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kMarked = "kfuse.read_only_args";

/// The value a memref view is taken of, followed to the buffer itself.
Value rootBuffer(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      v = view.getViewSource();
      continue;
    }
    if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(def)) {
      v = meta.getSource();
      continue;
    }
    break;
  }
  return v;
}

/// A buffer allocated by the host code: memory no other live buffer has.
bool isFreshAllocation(Value root) {
  return isa_and_nonnull<memref::AllocOp, gpu::AllocOp>(root.getDefiningOp());
}

/// Whether the kernel may write memory through `arg` (or a view of it).
/// Unknown uses (an op without memory effects that takes the memref, a
/// branch or a call) count as writes.
bool mayWrite(BlockArgument arg) {
  SmallVector<Value> worklist{arg};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == v) {
        worklist.append(user->result_begin(), user->result_end());
        continue;
      }
      if (isa<memref::ExtractStridedMetadataOp>(user)) {
        worklist.push_back(user->getResult(0)); // the base buffer
        continue;
      }
      auto effects = dyn_cast<MemoryEffectOpInterface>(user);
      if (!effects)
        return true;
      SmallVector<MemoryEffects::EffectInstance> list;
      effects.getEffectsOnValue(v, list);
      for (auto &e : list)
        if (!isa<MemoryEffects::Read>(e.getEffect()))
          return true;
    }
  }
  return false;
}

/// Phase 1: marks the memref arguments of each kernel that are safe to read
/// through ld.global.nc.
void markKernels(ModuleOp module) {
  llvm::DenseMap<Operation *, SmallVector<gpu::LaunchFuncOp>> launches;
  SymbolTableCollection symbols;
  module.walk([&](gpu::LaunchFuncOp launch) {
    if (auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
            launch, launch.getKernel()))
      launches[kernel].push_back(launch);
  });
  module.walk([&](gpu::GPUFuncOp kernel) {
    auto it = launches.find(kernel);
    if (!kernel.isKernel() || it == launches.end())
      return; // no launch in this module: nothing known of its buffers
    unsigned n = kernel.getNumArguments();
    SmallVector<bool> written(n), candidate(n);
    for (unsigned k = 0; k < n; ++k) {
      BlockArgument arg = kernel.getArgument(k);
      if (!isa<MemRefType>(arg.getType()))
        continue;
      written[k] = mayWrite(arg);
      candidate[k] = !written[k];
    }
    for (gpu::LaunchFuncOp launch : it->second) {
      if (launch.getNumKernelOperands() != n)
        return;
      SmallVector<Value> writtenRoots;
      for (unsigned k = 0; k < n; ++k) {
        if (!written[k])
          continue;
        Value root = rootBuffer(launch.getKernelOperand(k));
        if (!isFreshAllocation(root)) {
          LLVM_DEBUG(llvm::dbgs() << kernel.getName() << ": argument " << k
                                  << " is written and not a fresh allocation\n");
          return;
        }
        writtenRoots.push_back(root);
      }
      for (unsigned k = 0; k < n; ++k)
        if (candidate[k] &&
            llvm::is_contained(writtenRoots, rootBuffer(launch.getKernelOperand(k))))
          candidate[k] = false; // a view of a buffer the kernel writes
    }
    bool any = false;
    for (unsigned k = 0; k < n; ++k) {
      if (!candidate[k])
        continue;
      kernel.setArgAttr(k, LLVM::LLVMDialect::getReadonlyAttrName(),
                        UnitAttr::get(kernel.getContext()));
      any = true;
      LLVM_DEBUG(llvm::dbgs() << kernel.getName() << ": argument " << k
                              << " is read-only\n");
    }
    if (any)
      kernel->setAttr(kMarked, UnitAttr::get(kernel.getContext()));
  });
}

/// Phase 2: the read-only pointers of the marked (lowered) kernels are
/// noalias too.
void addNoAlias(ModuleOp module) {
  module.walk([&](LLVM::LLVMFuncOp func) {
    if (!func->hasAttr(kMarked))
      return;
    for (unsigned k = 0; k < func.getNumArguments(); ++k)
      if (isa<LLVM::LLVMPointerType>(func.getArgument(k).getType()) &&
          func.getArgAttr(k, LLVM::LLVMDialect::getReadonlyAttrName()))
        func.setArgAttr(k, LLVM::LLVMDialect::getNoAliasAttrName(),
                        UnitAttr::get(func.getContext()));
    func->removeAttr(kMarked);
  });
}

struct KfMarkReadOnlyArgsPass
    : kfuse::impl::KfMarkReadOnlyArgsBase<KfMarkReadOnlyArgsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (lowered)
      addNoAlias(getOperation());
    else
      markKernels(getOperation());
  }
};

} // namespace
