//===- KfDeviceBuffers.cpp - host buffers become device buffers -----------===//
//
// After bufferization the host code allocates with memref.alloc (malloc on
// the host), copies with memref.copy and reads constants from host globals.
// Kernels on a GPU need device memory, so every buffer the host code
// creates becomes a gpu.alloc / gpu.dealloc, every copy a gpu.memcpy, and
// every constant global is copied to a device buffer before use. The kfuse
// runtime implements these as a caching allocator and stream-ordered copies.
// Upstream has no pass for this: gpu-to-llvm lowers gpu.alloc, but nothing
// turns memref.alloc into it.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace kfuse {
#define GEN_PASS_DEF_KFDEVICEBUFFERS
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

/// A memref gpu.memcpy can copy: contiguous, in row-major order.
bool isContiguous(Value v) {
  auto type = cast<MemRefType>(v.getType());
  return type.getLayout().isIdentity() || type.areTrailingDimsContiguous(type.getRank());
}

LogicalResult convert(func::FuncOp func) {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (op->getParentOfType<gpu::LaunchOp>())
      return;
    if (isa<memref::AllocOp, memref::DeallocOp, memref::CopyOp,
            memref::GetGlobalOp, memref::LoadOp, memref::StoreOp,
            memref::AllocaOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      auto device = gpu::AllocOp::create(b, loc, alloc.getType(), Type(),
                                         ValueRange(), alloc.getDynamicSizes(),
                                         alloc.getSymbolOperands());
      alloc.replaceAllUsesWith(device.getMemref());
      alloc.erase();
    } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      gpu::DeallocOp::create(b, loc, Type(), ValueRange(), dealloc.getMemref());
      dealloc.erase();
    } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      if (!isContiguous(copy.getSource()) || !isContiguous(copy.getTarget()))
        return copy.emitError("kf-device-buffers: a copy between strided "
                              "views has no device version yet");
      gpu::MemcpyOp::create(b, loc, Type(), ValueRange(), copy.getTarget(),
                            copy.getSource());
      copy.erase();
    } else if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
      // A constant: a device copy for this call, freed before returning.
      b.setInsertionPointAfter(global);
      auto device = gpu::AllocOp::create(b, loc, global.getType(), Type(),
                                         ValueRange(), ValueRange(), ValueRange());
      global.getResult().replaceAllUsesWith(device.getMemref());
      gpu::MemcpyOp::create(b, loc, Type(), ValueRange(), device.getMemref(),
                            global.getResult());
      func.walk([&](func::ReturnOp ret) {
        for (Value v : ret.getOperands())
          if (v == device.getMemref())
            return; // owned by the caller
        OpBuilder rb(ret);
        gpu::DeallocOp::create(rb, loc, Type(), ValueRange(), device.getMemref());
      });
    } else {
      return op->emitError("kf-device-buffers: host code would touch device "
                           "memory (")
             << op->getName() << " outside a kernel)";
    }
  }
  return success();
}

struct KfDeviceBuffersPass
    : kfuse::impl::KfDeviceBuffersBase<KfDeviceBuffersPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() && failed(convert(func)))
        return signalPassFailure();
  }
};

} // namespace
