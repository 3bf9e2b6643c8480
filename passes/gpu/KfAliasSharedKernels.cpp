//===- KfAliasSharedKernels.cpp - shared kernels launched by their names --===//
//
// kf-share-kernel-code left the launches of kernels of the same code
// launching one gpu.func, their own names kept in `kf.launch_name`. Once
// the gpu.module is a gpu.binary, whose kernels no verifier looks up, each
// such launch gets its name back, and the binary's object starts with a
// line `// kfuse-kernel-alias NAME KERNEL` for each name, which the
// runtime reads when it loads the module (Runtime.cpp, readKernelAliases):
// kernel NAME runs KERNEL's code. Every launch is then timed, reported
// and checked under the name that kernels.json and the report give it.
// The line is a comment to ptxas and the CUDA driver.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "dialect/Kf/KfDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace kfuse {
#define GEN_PASS_DEF_KFALIASSHAREDKERNELS
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

struct KfAliasSharedKernelsPass
    : kfuse::impl::KfAliasSharedKernelsBase<KfAliasSharedKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    kfuse::kf::KfDialect::LaunchNameAttrHelper launchName(&getContext());
    SymbolTable symbols(module);
    // gpu.binary -> its lines, in the order of the launches.
    llvm::MapVector<Operation *, llvm::SetVector<std::pair<StringRef, StringRef>>> aliases;
    WalkResult walk = module.walk([&](gpu::LaunchFuncOp launch) {
      StringAttr name = launchName.getAttr(launch);
      if (!name)
        return WalkResult::advance();
      auto binary = dyn_cast_or_null<gpu::BinaryOp>(
          symbols.lookup(launch.getKernelModuleName()));
      if (!binary) {
        launch.emitError("kf-alias-shared-kernels: the launch of a shared kernel "
                         "must launch from a gpu.binary (run it after the "
                         "gpu.module is compiled)");
        return WalkResult::interrupt();
      }
      aliases[binary].insert({name.getValue(), launch.getKernelName().getValue()});
      launch.setKernelAttr(
          SymbolRefAttr::get(launch.getKernelModuleName(), {FlatSymbolRefAttr::get(name)}));
      launchName.removeAttr(launch);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    for (auto &[op, lines] : aliases) {
      auto binary = cast<gpu::BinaryOp>(op);
      std::string header;
      for (auto [name, kernel] : lines)
        header += ("// kfuse-kernel-alias " + name + " " + kernel + "\n").str();
      SmallVector<Attribute> objects;
      for (Attribute attr : binary.getObjects()) {
        auto object = cast<gpu::ObjectAttr>(attr);
        // Text only: PTX, or the host runtime's object (kf-host-kernels).
        StringRef text = object.getObject().getValue();
        bool hostObject = text.starts_with("KFUSE-HOST-MODULE:");
        if (object.getFormat() != gpu::CompilationTarget::Assembly && !hostObject) {
          binary.emitError("kf-alias-shared-kernels: a binary object is not "
                           "text (PTX or kfuse's host kernels), so it cannot "
                           "name the kernels it shares; compile it to PTX "
                           "(gpu-module-to-binary format=isa)");
          return signalPassFailure();
        }
        objects.push_back(gpu::ObjectAttr::get(
            &getContext(), object.getTarget(), object.getFormat(),
            StringAttr::get(&getContext(), header + text), object.getProperties(),
            object.getKernels()));
      }
      binary.setObjectsAttr(ArrayAttr::get(&getContext(), objects));
    }
  }
};

} // namespace
