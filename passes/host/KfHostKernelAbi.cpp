//===- KfHostKernelAbi.cpp - the runtime's entry point for host kernels ---===//
//
// gpu-to-llvm packs a launch's arguments as an array of pointers, one per
// LLVM-level argument (a memref is its descriptor's fields), and the CUDA
// driver unpacks them for the kernel. For a host kernel the kfuse runtime
// calls `void <name>(void **params, const int64_t geometry[9])` for each
// block; this pass writes that function, which loads every argument from
// params and calls the kernel's body (renamed `<name>_block`).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace kfuse {
#define GEN_PASS_DEF_KFHOSTKERNELABI
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

struct KfHostKernelAbiPass
    : kfuse::impl::KfHostKernelAbiBase<KfHostKernelAbiPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<LLVM::LLVMFuncOp> kernels;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (!kfuse::kf::getHostKernel(func).empty())
        kernels.push_back(func);
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    for (LLVM::LLVMFuncOp body : kernels) {
      std::string name = body.getName().str();
      body.setName(name + "_block");
      body.setLinkage(LLVM::Linkage::Internal);
      ArrayRef<Type> params = body.getFunctionType().getParams();
      if (params.size() < 9 ||
          llvm::any_of(params.take_back(9), [&](Type t) { return t != i64; }))
        return (void)(body.emitError("kf-host-kernel-abi: ")
                      << name << " does not end in 9 i64 launch sizes"),
               signalPassFailure();
      OpBuilder b(body);
      Location loc = body.getLoc();
      auto wrapper = LLVM::LLVMFuncOp::create(
          b, loc, name,
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr, ptr}));
      Block *entry = wrapper.addEntryBlock(b);
      b.setInsertionPointToStart(entry);
      SmallVector<Value> args;
      unsigned numKernelArgs = params.size() - 9;
      for (unsigned i = 0; i < numKernelArgs; ++i) {
        Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, entry->getArgument(0),
                                         ArrayRef<LLVM::GEPArg>{(int32_t)i});
        Value address = LLVM::LoadOp::create(b, loc, ptr, slot);
        args.push_back(LLVM::LoadOp::create(b, loc, params[i], address));
      }
      for (int32_t k = 0; k < 9; ++k) {
        Value slot = LLVM::GEPOp::create(b, loc, ptr, i64, entry->getArgument(1),
                                         ArrayRef<LLVM::GEPArg>{k});
        args.push_back(LLVM::LoadOp::create(b, loc, i64, slot));
      }
      LLVM::CallOp::create(b, loc, body, args);
      LLVM::ReturnOp::create(b, loc, ValueRange());
    }
  }
};

} // namespace
