//===- KfHostKernels.cpp - outlined GPU kernels as host functions ---------===//
//
// The CPU runtime runs the same kernels as the GPU, launched through the
// same mgpu* calls (so launches are named, counted and timed alike): each
// gpu.func becomes a host function that runs one block, its threads as a
// loop, and the gpu.module becomes a gpu.binary whose object only names the
// host functions. The runtime spreads the blocks of a launch over the cores.
// Upstream lowers gpu.func only for a GPU target; nothing runs it on the
// host.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"

namespace kfuse {
#define GEN_PASS_DEF_KFHOSTKERNELS
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

/// `func.func @__kfuse_host_<module>_<kernel>(kernel args..., grid x/y/z,
/// block x/y/z, block id x/y/z)`: one block, threads in x-fastest order.
LogicalResult outline(gpu::GPUFuncOp kernel, StringRef prefix,
                      OpBuilder &b) {
  Region &body = kernel.getBody();
  if (!body.hasOneBlock())
    return kernel.emitError("kf-host-kernels: kernel '")
           << kernel.getName() << "' has more than one block";
  if (!kernel.getWorkgroupAttributions().empty() ||
      body.walk([](Operation *op) {
            return isa<gpu::BarrierOp, gpu::ShuffleOp>(op)
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          }).wasInterrupted())
    return kernel.emitError("kf-host-kernels: kernel '")
           << kernel.getName()
           << "' synchronizes its threads; it has no host version";
  Location loc = kernel.getLoc();
  Type index = b.getIndexType();
  SmallVector<Type> args(kernel.getArgumentTypes());
  args.append(9, index);
  auto func = func::FuncOp::create(b, loc, (prefix + kernel.getName()).str(),
                                   b.getFunctionType(args, {}));
  kfuse::kf::setHostKernel(func, kernel.getName());
  Block *entry = func.addEntryBlock();
  OpBuilder fb = OpBuilder::atBlockBegin(entry);
  IRMapping mapping;
  unsigned n = kernel.getNumArguments();
  for (unsigned i = 0; i < n; ++i)
    mapping.map(kernel.getArgument(i), entry->getArgument(i));
  auto geometry = [&](unsigned k) { return entry->getArgument(n + k); };
  Value zero = arith::ConstantIndexOp::create(fb, loc, 0);
  Value one = arith::ConstantIndexOp::create(fb, loc, 1);
  SmallVector<Value> threadIds(3);
  for (int d = 2; d >= 0; --d) { // z, y, x: x innermost
    auto loop = scf::ForOp::create(fb, loc, zero, geometry(3 + d), one);
    threadIds[d] = loop.getInductionVar();
    fb.setInsertionPointToStart(loop.getBody());
  }
  for (Operation &op : body.front()) {
    if (isa<gpu::ReturnOp>(op))
      break;
    auto dim = [](gpu::Dimension d) { return static_cast<unsigned>(d); };
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
      mapping.map(id.getResult(), threadIds[dim(id.getDimension())]);
    } else if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
      mapping.map(id.getResult(), geometry(6 + dim(id.getDimension())));
    } else if (auto size = dyn_cast<gpu::BlockDimOp>(op)) {
      mapping.map(size.getResult(), geometry(3 + dim(size.getDimension())));
    } else if (auto size = dyn_cast<gpu::GridDimOp>(op)) {
      mapping.map(size.getResult(), geometry(dim(size.getDimension())));
    } else if (op.getDialect() == kernel->getDialect()) {
      return op.emitError("kf-host-kernels: no host version of ")
             << op.getName();
    } else {
      fb.clone(op, mapping);
    }
  }
  fb.setInsertionPointToEnd(entry);
  func::ReturnOp::create(fb, loc);
  return success();
}

struct KfHostKernelsPass : kfuse::impl::KfHostKernelsBase<KfHostKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    for (auto gpuModule :
         llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>())) {
      OpBuilder b(gpuModule);
      std::string prefix = ("__kfuse_host_" + gpuModule.getName() + "_").str();
      SmallVector<Attribute> kernels;
      for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>()) {
        if (failed(outline(kernel, prefix, b)))
          return signalPassFailure();
      }
      // The runtime recognizes this object and finds the functions by
      // their prefix in the library that holds it.
      std::string object = "KFUSE-HOST-MODULE:" + prefix;
      object.push_back('\0');
      auto objectAttr = gpu::ObjectAttr::get(
          ctx, NVVM::NVVMTargetAttr::get(ctx), gpu::CompilationTarget::Binary,
          StringAttr::get(ctx, object), nullptr, nullptr);
      gpu::BinaryOp::create(b, gpuModule.getLoc(), gpuModule.getName(), nullptr,
                            ArrayRef<Attribute>{objectAttr});
      gpuModule.erase();
    }
  }
};

} // namespace
