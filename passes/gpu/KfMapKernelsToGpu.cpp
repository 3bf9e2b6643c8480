//===- KfMapKernelsToGpu.cpp - pointwise kernels as flat gpu.launch -------===//
#include "passes/Passes.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

#define DEBUG_TYPE "kf-map-kernels-to-gpu"

namespace kfuse {
#define GEN_PASS_DEF_KFMAPKERNELSTOGPU
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

/// The loop indices of flat index `i` over `sizes` (row-major).
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value i,
                               ArrayRef<Value> sizes) {
  SmallVector<Value> ivs(sizes.size());
  for (int64_t d = (int64_t)sizes.size() - 1; d >= 0; --d) {
    if (d == 0) {
      ivs[d] = i;
      break;
    }
    ivs[d] = arith::RemUIOp::create(b, loc, i, sizes[d]);
    i = arith::DivUIOp::create(b, loc, i, sizes[d]);
  }
  return ivs;
}

/// Indices of `map` applied to the loop indices.
SmallVector<Value> indices(OpBuilder &b, Location loc, AffineMap map,
                           ValueRange ivs) {
  return *affine::expandAffineMap(b, loc, map, ivs);
}

/// Maps the generics of one kernel (in program order, one iteration space,
/// checked by kf-tag-gpu-kernels) to one launch: each thread runs them one
/// after the other for its element, a value one op stores and the next
/// reads at the same element passing in a register.
LogicalResult mapToLaunch(ArrayRef<linalg::GenericOp> ops, unsigned blockSize) {
  linalg::GenericOp first = ops.front(), last = ops.back();
  auto name = first->getAttrOfType<StringAttr>("kf.kernel");
  for (linalg::GenericOp op : ops)
    if (!op.hasPureBufferSemantics() || op.getNumReductionLoops() != 0)
      return op.emitError("kf-map-kernels-to-gpu: kernel '")
             << name.getValue() << "' is not a bufferized pointwise op";
  OpBuilder b(last);
  Location loc = first.getLoc();

  // Loop sizes, their product n, and the grid: one thread an element.
  SmallVector<Value> sizes;
  for (Range r : cast<linalg::LinalgOp>(last.getOperation()).createLoopRanges(b, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
  Value n = arith::ConstantIndexOp::create(b, loc, 1);
  for (Value s : sizes)
    n = arith::MulIOp::create(b, loc, n, s);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value block = arith::ConstantIndexOp::create(b, loc, blockSize);
  Value grid = arith::MaxUIOp::create(
      b, loc, arith::CeilDivUIOp::create(b, loc, n, block), one);
  auto symbol = FlatSymbolRefAttr::get(name);
  auto module = FlatSymbolRefAttr::get(b.getContext(), "kfuse_kernels");
  auto launch = gpu::LaunchOp::create(
      b, loc, grid, one, one, block, one, one, /*dynamicSharedMemorySize=*/
      nullptr, /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{},
      /*workgroupAttributions=*/{}, /*privateAttributions=*/{}, nullptr,
      nullptr, nullptr, module, symbol);

  b.setInsertionPointToStart(&launch.getBody().front());
  Value base = arith::MulIOp::create(b, loc, launch.getBlockIds().x, block);
  Value i = arith::AddIOp::create(b, loc, base, launch.getThreadIds().x);
  Value inBounds =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, i, n);
  auto guard = scf::IfOp::create(b, loc, inBounds, /*withElseRegion=*/false);
  gpu::TerminatorOp::create(b, loc);

  b.setInsertionPointToStart(&guard.getThenRegion().front());
  SmallVector<Value> ivs = delinearize(b, loc, i, sizes);
  llvm::DenseMap<Value, Value> stored; // buffer -> this thread's element
  for (linalg::GenericOp op : ops) {
    IRMapping mapping;
    Block &body = op.getRegion().front();
    for (OpOperand &operand : op->getOpOperands()) {
      BlockArgument arg = body.getArgument(operand.getOperandNumber());
      if (arg.use_empty())
        continue; // an init that the body never reads
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (map.isIdentity())
        if (auto it = stored.find(operand.get()); it != stored.end()) {
          mapping.map(arg, it->second);
          continue;
        }
      mapping.map(arg, memref::LoadOp::create(b, loc, operand.get(),
                                              indices(b, loc, map, ivs)));
    }
    for (Operation &inner : body.without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
        mapping.map(index.getResult(), ivs[index.getDim()]);
        continue;
      }
      b.clone(inner, mapping);
    }
    auto yield = cast<linalg::YieldOp>(body.getTerminator());
    for (auto [value, init] :
         llvm::zip(yield.getValues(), op.getDpsInitsMutable())) {
      Value v = mapping.lookupOrDefault(value);
      memref::StoreOp::create(b, loc, v, init.get(),
                              indices(b, loc, op.getMatchingIndexingMap(&init), ivs));
      stored[init.get()] = v;
    }
  }
  for (linalg::GenericOp op : ops)
    op.erase();
  return success();
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
    llvm::MapVector<StringAttr, SmallVector<linalg::GenericOp>> kernels;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (auto name = op->getAttrOfType<StringAttr>("kf.kernel"))
        kernels[name].push_back(op);
    });
    for (auto &[name, ops] : kernels)
      if (failed(mapToLaunch(ops, blockSize)))
        return signalPassFailure();
  }
};

} // namespace
