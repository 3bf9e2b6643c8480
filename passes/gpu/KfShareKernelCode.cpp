//===- KfShareKernelCode.cpp - one gpu.func for kernels of the same code --===//
//
// An eager program launches a few distinct kernels many times: 1,000 ops of
// softmax, layer_norm, tanh, add and mul over one shape outline 3,400
// gpu.funcs of some ten different bodies, and NVPTX code generation and
// the host kernels' O3 took most of the compile time compiling the same
// code again and again. Upstream has nothing for it (LLVM's MergeFunctions
// works on device functions, not kernel entries, and only after the cost
// is paid). Here kernels whose code is the same become one: the first
// keeps its gpu.func, the launches of the others launch it and keep the
// name they had in `kf.launch_name`; kf-alias-shared-kernels gives those
// names back once the gpu.module is a gpu.binary, so that the runtime
// times and reports every kernel under its own name.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "dialect/Kf/KfDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

namespace kfuse {
#define GEN_PASS_DEF_KFSHAREKERNELCODE
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

/// The attributes of `kernel` but its name.
DictionaryAttr attributesButName(gpu::GPUFuncOp kernel) {
  NamedAttrList attrs(kernel->getAttrDictionary());
  attrs.erase(SymbolTable::getSymbolAttrName());
  return attrs.getDictionary(kernel->getContext());
}

/// A hash of the code of `kernel`, its name left out: equal for kernels
/// that `sameCode` finds equal (locations and value identities are left
/// out too; `sameCode` decides).
llvm::hash_code hashCode(gpu::GPUFuncOp kernel) {
  llvm::hash_code h = llvm::hash_combine(kernel.getFunctionType().getAsOpaquePointer(),
                                         attributesButName(kernel).getAsOpaquePointer());
  kernel.getBody().walk([&](Operation *op) {
    h = llvm::hash_combine(
        h, OperationEquivalence::computeHash(op, OperationEquivalence::ignoreHashValue,
                                             OperationEquivalence::ignoreHashValue,
                                             OperationEquivalence::IgnoreLocations));
  });
  return h;
}

/// Whether `a` and `b` compute the same thing from the same arguments.
bool sameCode(gpu::GPUFuncOp a, gpu::GPUFuncOp b) {
  return a.getFunctionType() == b.getFunctionType() &&
         attributesButName(a) == attributesButName(b) &&
         OperationEquivalence::isRegionEquivalentTo(&a.getBody(), &b.getBody(),
                                                    OperationEquivalence::IgnoreLocations);
}

struct KfShareKernelCodePass
    : kfuse::impl::KfShareKernelCodeBase<KfShareKernelCodePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // (gpu.module, kernel) -> the kernel of the same code that stays.
    llvm::DenseMap<Operation *, llvm::StringMap<StringAttr>> sharedBy;
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
      llvm::DenseMap<llvm::hash_code, SmallVector<gpu::GPUFuncOp, 1>> kept;
      SmallVector<gpu::GPUFuncOp> duplicates;
      for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>()) {
        if (!kernel.isKernel())
          continue; // device functions are called, not launched
        SmallVector<gpu::GPUFuncOp, 1> &same = kept[hashCode(kernel)];
        auto it = llvm::find_if(same, [&](gpu::GPUFuncOp k) { return sameCode(k, kernel); });
        if (it == same.end()) {
          same.push_back(kernel);
          continue;
        }
        sharedBy[gpuModule][kernel.getName()] = it->getNameAttr();
        duplicates.push_back(kernel);
      }
      for (gpu::GPUFuncOp kernel : duplicates)
        kernel.erase();
    }
    if (sharedBy.empty())
      return;
    SymbolTable symbols(module);
    kfuse::kf::KfDialect::LaunchNameAttrHelper launchName(&getContext());
    module.walk([&](gpu::LaunchFuncOp launch) {
      Operation *gpuModule = symbols.lookup(launch.getKernelModuleName());
      auto shared = sharedBy.find(gpuModule);
      if (shared == sharedBy.end())
        return;
      auto kept = shared->second.find(launch.getKernelName().getValue());
      if (kept == shared->second.end())
        return;
      if (!launchName.isAttrPresent(launch))
        launchName.setAttr(launch, launch.getKernelName());
      launch.setKernelAttr(
          SymbolRefAttr::get(launch.getKernelModuleName(), {FlatSymbolRefAttr::get(kept->second)}));
    });
  }
};

} // namespace
