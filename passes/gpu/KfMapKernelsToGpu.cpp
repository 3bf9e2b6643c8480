//===- KfMapKernelsToGpu.cpp - each kernel as its gpu.launch ---------------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "passes/gpu/MappingUtils.h"
#include "passes/gpu/MatmulKernels.h"
#include "passes/gpu/PointwiseKernels.h"
#include "passes/gpu/RowKernels.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

#define DEBUG_TYPE "kf-map-kernels-to-gpu"

namespace kfuse {
#define GEN_PASS_DEF_KFMAPKERNELSTOGPU
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

/// A kernel's launch sits where its last op was; buffer deallocation ran
/// before and freed buffers after their last use by an earlier op of the
/// kernel. Those frees move after the launch (a later free is always safe).
LogicalResult keepBuffersAlive(gpu::LaunchOp launch) {
  llvm::SetVector<Value> used;
  getUsedValuesDefinedAbove(launch.getBody(), used);
  for (Value v : launch->getOperands())
    used.insert(v);
  SmallVector<Operation *> frees;
  for (Operation *op = launch->getPrevNode(); op; op = op->getPrevNode()) {
    if (isa<gpu::LaunchOp>(op))
      break; // earlier launches were fixed already
    if (!isa<bufferization::DeallocOp, memref::DeallocOp>(op) ||
        llvm::none_of(op->getOperands(), [&](Value v) { return used.contains(v); }))
      continue;
    for (Operation *user : op->getUsers())
      if (user->getBlock() == launch->getBlock() && user->isBeforeInBlock(launch))
        return op->emitError("kf-map-kernels-to-gpu: a free before the launch of "
                             "its buffer's kernel cannot move after it");
    frees.push_back(op);
  }
  Operation *after = launch;
  for (Operation *op : llvm::reverse(frees)) {
    op->moveAfter(after);
    after = op;
  }
  return success();
}

/// Whether a reduction or matmul kernel lost its reduction: over an empty
/// dim (a static 0, or K = 0) it iterates over nothing, and upstream's
/// canonicalization on buffers erases it (EraseDeadLinalgOp). What is left,
/// the fill of its result and the ops after it, is a pointwise kernel.
bool withoutIterations(ArrayRef<linalg::LinalgOp> ops) {
  if (!ops.front()->hasAttr("kf.row") && !ops.front()->hasAttr("kf.matmul"))
    return false;
  return llvm::none_of(ops, [](linalg::LinalgOp op) {
    return op.getNumReductionLoops() > 0;
  });
}

/// Fills as generics without inputs (the value used from above), so that
/// the flat mapping runs them.
void generalizeFills(SmallVectorImpl<linalg::LinalgOp> &ops) {
  for (linalg::LinalgOp &op : ops) {
    auto fill = dyn_cast<linalg::FillOp>(op.getOperation());
    if (!fill)
      continue;
    OpBuilder b(fill);
    Value dest = fill.getDpsInits()[0], value = fill.getInputs()[0];
    unsigned rank = cast<MemRefType>(dest.getType()).getRank();
    auto generic = linalg::GenericOp::create(
        b, fill.getLoc(), TypeRange(), ValueRange(), dest,
        b.getMultiDimIdentityMap(rank),
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location loc, ValueRange) {
          linalg::YieldOp::create(nb, loc, value);
        });
    generic->setDiscardableAttrs(fill->getDiscardableAttrDictionary());
    fill.erase();
    op = generic;
  }
}

struct KfMapKernelsToGpuPass
    : kfuse::impl::KfMapKernelsToGpuBase<KfMapKernelsToGpuPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    if (blockSize == 0 || blockSize > 1024 || blockSize % 32 != 0)
      return emitError(UnknownLoc::get(ctx))
             << "kf-map-kernels-to-gpu: block-size must be a multiple of 32 "
                "from 32 to 1024, got "
             << static_cast<unsigned>(blockSize);
    return success();
  }

  void runOnOperation() override {
    // The ops of each kernel, in program order.
    llvm::MapVector<StringAttr, SmallVector<linalg::LinalgOp>> kernels;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (auto name = op->getAttrOfType<StringAttr>("kf.kernel"))
        kernels[name].push_back(op);
    });
    for (auto &[name, ops] : kernels) {
      if (withoutIterations(ops)) {
        generalizeFills(ops);
      } else if (ops.front()->hasAttr("kf.serial")) {
        kfuse::gpu::mapSerialKernel(ops);
        continue;
      } else if (ops.front()->hasAttr("kf.matmul")) {
        if (failed(kfuse::gpu::mapMatmulKernel(ops, host)))
          return signalPassFailure();
        continue;
      } else if (ops.front()->hasAttr("kf.row")) {
        if (failed(kfuse::gpu::mapRowKernel(ops, blockSize, host)))
          return signalPassFailure();
        continue;
      }
      SmallVector<linalg::GenericOp> generics;
      for (linalg::LinalgOp op : ops) {
        auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
        if (!generic) {
          op->emitError("kf-map-kernels-to-gpu: kernel '")
              << name.getValue() << "' holds a "
              << op->getName().getStringRef() << ", not a pointwise generic";
          return signalPassFailure();
        }
        generics.push_back(generic);
      }
      if (failed(kfuse::gpu::mapPointwiseKernel(generics, blockSize, vectorWidth)))
        return signalPassFailure();
    }
    SmallVector<gpu::LaunchOp> launches;
    getOperation()->walk([&](gpu::LaunchOp l) { launches.push_back(l); });
    for (gpu::LaunchOp launch : launches)
      if (failed(keepBuffersAlive(launch)))
        return signalPassFailure();
  }
};

} // namespace
