//===- LaunchTarget.cpp - the GPU's and the host's blocks -----------------===//
#include "passes/launch/LaunchTarget.h"

#include "passes/launch/LastBlockTicket.h"
#include "passes/launch/WarpShuffles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace kfuse::launch;

LaunchTarget::~LaunchTarget() = default;

namespace {

/// Workgroup memory of `n` values of `type`.
MemRefType workgroupBuffer(MLIRContext *ctx, int64_t n, Type type) {
  auto workgroup = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  return MemRefType::get({n}, type, MemRefLayoutAttrInterface(), workgroup);
}

} // namespace

//===----------------------------------------------------------------------===//
// GpuLaunchTarget
//===----------------------------------------------------------------------===//

Value GpuLaunchTarget::threadsPerBlock(OpBuilder &b, Location loc,
                                       function_ref<Value(Value)> wanted) const {
  return wanted(arith::ConstantIndexOp::create(b, loc, blockSize));
}

void GpuLaunchTarget::barrier(OpBuilder &b, Location loc) const {
  gpu::BarrierOp::create(b, loc);
}

SmallVector<Type> GpuLaunchTarget::combineScratch(MLIRContext *ctx, Type type) const {
  return {workgroupBuffer(ctx, 32, type)}; // one value a warp
}

/// Warp shuffles, then the warps' values through workgroup memory in the
/// first warp.
void GpuLaunchTarget::blockCombine(OpBuilder &b, Location loc, Operation *combiner,
                                   Value partial, Value identity, Value tid, Value blockDim,
                                   ValueRange scratch, Value dest, ValueRange index) const {
  Value shared = scratch.front();
  Value c32 = arith::ConstantIndexOp::create(b, loc, 32);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value warpValue = warpReduce(b, loc, combiner, partial);
  Value lane = arith::RemUIOp::create(b, loc, tid, c32);
  Value warp = arith::DivUIOp::create(b, loc, tid, c32);
  auto isLaneZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, zero);
  auto write = scf::IfOp::create(b, loc, isLaneZero, false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&write.getThenRegion().front());
    memref::StoreOp::create(b, loc, warpValue, shared, ValueRange{warp});
  }
  gpu::BarrierOp::create(b, loc);
  Value numWarps = arith::DivUIOp::create(b, loc, blockDim, c32);
  auto isWarpZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warp, zero);
  auto last = scf::IfOp::create(b, loc, isWarpZero, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&last.getThenRegion().front());
  auto hasValue = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid, numWarps);
  // Lanes past the number of warps start from the identity.
  Value safeLane = arith::SelectOp::create(b, loc, hasValue, tid, zero);
  Value loaded = memref::LoadOp::create(b, loc, shared, ValueRange{safeLane});
  Value v = arith::SelectOp::create(b, loc, hasValue, loaded, identity);
  Value total = warpReduce(b, loc, combiner, v);
  auto isThreadZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero);
  auto store = scf::IfOp::create(b, loc, isThreadZero, false);
  b.setInsertionPointToStart(&store.getThenRegion().front());
  memref::StoreOp::create(b, loc, total, dest, index);
}

SmallVector<Type> GpuLaunchTarget::lastBlockScratch(MLIRContext *ctx) const {
  return {workgroupBuffer(ctx, 1, IntegerType::get(ctx, 32))}; // the answer, shared
}

/// A barrier (the block's writes are done), thread 0 takes the ticket and
/// shares the answer through workgroup memory; a barrier.
Value GpuLaunchTarget::isLastBlock(OpBuilder &b, Location loc, FlatSymbolRefAttr ticket,
                                   Value tid, Value grid, ValueRange scratch) const {
  Value flag = scratch.front();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Type i32 = b.getI32Type();
  gpu::BarrierOp::create(b, loc);
  auto first = scf::IfOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero), false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&first.getThenRegion().front());
    Value last = takeLastTicket(b, loc, ticket, grid);
    memref::StoreOp::create(b, loc, arith::ExtUIOp::create(b, loc, i32, last), flag,
                            ValueRange{zero});
  }
  gpu::BarrierOp::create(b, loc);
  Value shared = memref::LoadOp::create(b, loc, flag, ValueRange{zero});
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, shared,
                               arith::ConstantIntOp::create(b, loc, i32, 0));
}

ThreadShare GpuLaunchTarget::gridShare(OpBuilder &b, Location loc, Value bid, Value grid,
                                       Value tid, Value blockDim, Value count) const {
  Value begin = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, bid, blockDim), tid);
  Value step = arith::MulIOp::create(b, loc, grid, blockDim);
  return {begin, count, step};
}

//===----------------------------------------------------------------------===//
// HostLaunchTarget
//===----------------------------------------------------------------------===//

Value HostLaunchTarget::threadsPerBlock(OpBuilder &b, Location loc,
                                        function_ref<Value(Value)>) const {
  return arith::ConstantIndexOp::create(b, loc, 1);
}

/// One thread: its partial is the block's value.
void HostLaunchTarget::blockCombine(OpBuilder &b, Location loc, Operation *, Value partial,
                                    Value, Value, Value, ValueRange, Value dest,
                                    ValueRange index) const {
  memref::StoreOp::create(b, loc, partial, dest, index);
}

/// One thread: it takes the ticket itself.
Value HostLaunchTarget::isLastBlock(OpBuilder &b, Location loc, FlatSymbolRefAttr ticket,
                                    Value, Value grid, ValueRange) const {
  return takeLastTicket(b, loc, ticket, grid);
}

ThreadShare HostLaunchTarget::gridShare(OpBuilder &b, Location loc, Value bid, Value grid,
                                        Value, Value, Value count) const {
  Value chunk = arith::CeilDivUIOp::create(b, loc, count, grid);
  Value begin = arith::MulIOp::create(b, loc, bid, chunk);
  Value end = arith::MinUIOp::create(b, loc, arith::AddIOp::create(b, loc, begin, chunk), count);
  return {begin, end, arith::ConstantIndexOp::create(b, loc, 1)};
}
