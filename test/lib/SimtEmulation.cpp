//===- SimtEmulation.cpp - launches with barriers, run on the host --------===//
#include "test/lib/SimtEmulation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace kfuse::gpu {

namespace {

bool synchronizes(Operation *op) {
  return op->walk([](Operation *inner) {
             return isa<::mlir::gpu::BarrierOp, ::mlir::gpu::ShuffleOp>(inner)
                        ? WalkResult::interrupt()
                        : WalkResult::advance();
           })
      .wasInterrupted();
}

class Emulator {
public:
  Emulator(::mlir::gpu::LaunchOp launch, bool reverseBlocks)
      : launch(launch), b(launch), loc(launch.getLoc()), reverseBlocks(reverseBlocks) {}

  LogicalResult run() {
    // Before the block loops: thread count, shared memory, per-thread arrays.
    ::mlir::gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    ::mlir::gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    zero = arith::ConstantIndexOp::create(b, loc, 0);
    one = arith::ConstantIndexOp::create(b, loc, 1);
    bdx = block.x;
    bdy = block.y;
    threads = arith::MulIOp::create(b, loc, arith::MulIOp::create(b, loc, block.x, block.y),
                                    block.z);
    ::mlir::gpu::KernelDim3 gridArgs = launch.getGridSize(), blockArgs = launch.getBlockSize();
    uniform.map(gridArgs.x, grid.x);
    uniform.map(gridArgs.y, grid.y);
    uniform.map(gridArgs.z, grid.z);
    uniform.map(blockArgs.x, block.x);
    uniform.map(blockArgs.y, block.y);
    uniform.map(blockArgs.z, block.z);
    for (BlockArgument shared : launch.getWorkgroupAttributions()) {
      auto type = cast<MemRefType>(shared.getType());
      Value alloc = memref::AllocOp::create(
          b, loc, MemRefType::get(type.getShape(), type.getElementType()));
      uniform.map(shared, alloc);
      toFree.push_back(alloc);
    }
    ::mlir::gpu::KernelDim3 ids = launch.getBlockIds();
    for (auto [id, bound] : {std::pair{ids.z, grid.z}, {ids.y, grid.y}, {ids.x, grid.x}}) {
      auto loop = scf::ForOp::create(b, loc, zero, bound, one);
      if (id == ids.z) // arrays are allocated before the block loops
        preheader = OpBuilder::InsertPoint(loop->getBlock(), Block::iterator(loop));
      b.setInsertionPointToStart(loop.getBody());
      uniform.map(id, blockIndex(b, loc, loop.getInductionVar(), bound, reverseBlocks));
    }
    SmallVector<Operation *> body;
    for (Operation &op : launch.getBody().front().without_terminator())
      body.push_back(&op);
    if (failed(lower(body, nullptr)))
      return failure();
    b.setInsertionPointAfter(launch);
    for (Value v : toFree)
      memref::DeallocOp::create(b, loc, v);
    launch.erase();
    return success();
  }

private:
  ::mlir::gpu::LaunchOp launch;
  OpBuilder b;
  Location loc;
  bool reverseBlocks;
  OpBuilder::InsertPoint preheader;
  Value zero, one, threads, bdx, bdy;
  IRMapping uniform; // values the same in every thread of a block
  llvm::DenseMap<Value, Value> perThread; // value -> its array, one slot a thread
  SmallVector<Value> toFree;

  Value arrayFor(Value v) {
    auto it = perThread.find(v);
    if (it != perThread.end())
      return it->second;
    OpBuilder::InsertionGuard guard(b);
    b.restoreInsertionPoint(preheader);
    Value array = memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, v.getType()), ValueRange{threads});
    preheader = b.saveInsertionPoint();
    toFree.push_back(array);
    return perThread[v] = array;
  }

  bool isInLaunch(Value v) {
    Operation *parent = v.getParentRegion()->getParentOp();
    return parent == launch || launch->isProperAncestor(parent);
  }

  /// The value of `v` in thread `t`, in a thread loop.
  FailureOr<Value> valueIn(Value v, Value t, IRMapping &local) {
    if (Value m = local.lookupOrNull(v))
      return m;
    if (Value u = uniform.lookupOrNull(v))
      return u;
    if (perThread.count(v))
      return Value(memref::LoadOp::create(b, loc, perThread[v], ValueRange{t}));
    if (!isInLaunch(v))
      return v;
    return emitError(v.getLoc(), "kf-emulate-gpu-launches: a value crosses a "
                                 "synchronization in a way the emulation does not follow");
  }

  /// for t in threads (where mask[t]): body(t, thread-id mapping).
  template <typename Body> LogicalResult forEachThread(Value mask, Body body) {
    auto loop = scf::ForOp::create(b, loc, zero, threads, one);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value t = loop.getInductionVar();
    if (mask) {
      auto active = scf::IfOp::create(b, loc, memref::LoadOp::create(b, loc, mask, ValueRange{t}),
                                      false);
      b.setInsertionPointToStart(&active.getThenRegion().front());
    }
    IRMapping local;
    ::mlir::gpu::KernelDim3 tid = launch.getThreadIds();
    Value xy = arith::MulIOp::create(b, loc, bdx, bdy);
    local.map(tid.x, arith::RemUIOp::create(b, loc, t, bdx));
    local.map(tid.y, arith::RemUIOp::create(b, loc, arith::DivUIOp::create(b, loc, t, bdx), bdy));
    local.map(tid.z, arith::DivUIOp::create(b, loc, t, xy));
    return body(t, local);
  }

  /// Runs ops without synchronization for every thread; values used past
  /// them go to their arrays.
  LogicalResult runOps(ArrayRef<Operation *> ops, Value mask) {
    if (ops.empty())
      return success();
    llvm::SmallPtrSet<Operation *, 16> inRun(ops.begin(), ops.end());
    auto usedLater = [&](Value r) {
      return llvm::any_of(r.getUsers(), [&](Operation *user) {
        for (Operation *p = user; p && p != launch; p = p->getParentOp())
          if (inRun.count(p))
            return false;
        return true;
      });
    };
    return forEachThread(mask, [&](Value t, IRMapping &local) -> LogicalResult {
      for (Operation *op : ops) {
        llvm::SetVector<Value> used;
        for (Value v : op->getOperands())
          used.insert(v);
        for (Region &r : op->getRegions())
          getUsedValuesDefinedAbove(r, used);
        for (Value v : used) {
          FailureOr<Value> m = valueIn(v, t, local);
          if (failed(m))
            return failure();
          if (*m != v)
            local.map(v, *m);
        }
        Operation *clone = b.clone(*op, local);
        for (auto [r, c] : llvm::zip(op->getResults(), clone->getResults()))
          if (usedLater(r))
            memref::StoreOp::create(b, loc, c, arrayFor(r), ValueRange{t});
      }
      return success();
    });
  }

  LogicalResult shuffle(::mlir::gpu::ShuffleOp op, Value mask) {
    bool idx = op.getMode() == ::mlir::gpu::ShuffleMode::IDX;
    if (op.getMode() != ::mlir::gpu::ShuffleMode::XOR && !idx)
      return op.emitError("kf-emulate-gpu-launches: only xor shuffles are emulated (and idx "
                          "ones, which kf-expand-warp-matrix-ops writes)");
    return forEachThread(mask, [&](Value t, IRMapping &local) -> LogicalResult {
      FailureOr<Value> offset = valueIn(op.getOffset(), t, local);
      if (failed(offset))
        return failure();
      Value lane = arith::IndexCastOp::create(b, loc, b.getIndexType(), *offset);
      // xor: lane t ^ offset; idx: lane `offset` of t's warp (width 32).
      Value source = idx ? Value(arith::AddIOp::create(
                               b, loc,
                               arith::SubIOp::create(
                                   b, loc, t,
                                   arith::RemUIOp::create(
                                       b, loc, t, arith::ConstantIndexOp::create(b, loc, 32))),
                               lane))
                         : Value(arith::XOrIOp::create(b, loc, t, lane));
      if (!perThread.count(op.getValue()))
        return op.emitError("kf-emulate-gpu-launches: the shuffled value is not per thread");
      Value v = memref::LoadOp::create(b, loc, perThread[op.getValue()], ValueRange{source});
      memref::StoreOp::create(b, loc, v, arrayFor(op.getShuffleResult()), ValueRange{t});
      Value valid = arith::ConstantIntOp::create(b, loc, 1, 1);
      memref::StoreOp::create(b, loc, valid, arrayFor(op.getValid()), ValueRange{t});
      return success();
    });
  }

  /// A value every thread has the same of (loop bounds): thread 0's.
  Value uniformValue(Value v) {
    if (Value u = uniform.lookupOrNull(v))
      return u;
    if (perThread.count(v))
      return memref::LoadOp::create(b, loc, perThread[v], ValueRange{zero});
    return v;
  }

  LogicalResult branch(scf::IfOp op, Value mask) {
    if (op.getNumResults())
      return op.emitError("kf-emulate-gpu-launches: a branch with results and a synchronization");
    auto maskType = MemRefType::get({ShapedType::kDynamic}, b.getI1Type());
    Value thenMask, elseMask;
    {
      OpBuilder::InsertionGuard guard(b);
      b.restoreInsertionPoint(preheader);
      thenMask = memref::AllocOp::create(b, loc, maskType, ValueRange{threads});
      elseMask = memref::AllocOp::create(b, loc, maskType, ValueRange{threads});
      preheader = b.saveInsertionPoint();
      toFree.push_back(thenMask);
      toFree.push_back(elseMask);
    }
    if (failed(forEachThread(nullptr, [&](Value t, IRMapping &local) -> LogicalResult {
          FailureOr<Value> c = valueIn(op.getCondition(), t, local);
          if (failed(c))
            return failure();
          Value active = mask ? Value(memref::LoadOp::create(b, loc, mask, ValueRange{t}))
                              : Value(arith::ConstantIntOp::create(b, loc, 1, 1));
          Value notC = arith::XOrIOp::create(b, loc, *c, arith::ConstantIntOp::create(b, loc, 1, 1));
          memref::StoreOp::create(b, loc, arith::AndIOp::create(b, loc, active, *c), thenMask,
                                  ValueRange{t});
          memref::StoreOp::create(b, loc, arith::AndIOp::create(b, loc, active, notC), elseMask,
                                  ValueRange{t});
          return success();
        })))
      return failure();
    SmallVector<Operation *> thenOps, elseOps;
    for (Operation &inner : op.getThenRegion().front().without_terminator())
      thenOps.push_back(&inner);
    if (failed(lower(thenOps, thenMask)))
      return failure();
    if (!op.getElseRegion().empty()) {
      for (Operation &inner : op.getElseRegion().front().without_terminator())
        elseOps.push_back(&inner);
      if (failed(lower(elseOps, elseMask)))
        return failure();
    }
    return success();
  }

  LogicalResult loop(scf::ForOp op, Value mask) {
    // Iteration values live per thread across the body's synchronizations.
    for (auto [arg, init] : llvm::zip(op.getRegionIterArgs(), op.getInitArgs()))
      perThread[arg] = arrayFor(arg);
    if (failed(forEachThread(mask, [&](Value t, IRMapping &local) -> LogicalResult {
          for (auto [arg, init] : llvm::zip(op.getRegionIterArgs(), op.getInitArgs())) {
            FailureOr<Value> v = valueIn(init, t, local);
            if (failed(v))
              return failure();
            memref::StoreOp::create(b, loc, *v, perThread[arg], ValueRange{t});
          }
          return success();
        })))
      return failure();
    auto host = scf::ForOp::create(b, loc, uniformValue(op.getLowerBound()),
                                   uniformValue(op.getUpperBound()), uniformValue(op.getStep()));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(host.getBody());
    uniform.map(op.getInductionVar(), host.getInductionVar());
    SmallVector<Operation *> body;
    for (Operation &inner : op.getBody()->without_terminator())
      body.push_back(&inner);
    if (failed(lower(body, mask)))
      return failure();
    auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
    if (failed(forEachThread(mask, [&](Value t, IRMapping &local) -> LogicalResult {
          SmallVector<Value> next;
          for (Value y : yield.getOperands()) {
            FailureOr<Value> v = valueIn(y, t, local);
            if (failed(v))
              return failure();
            next.push_back(*v);
          }
          for (auto [arg, v] : llvm::zip(op.getRegionIterArgs(), next))
            memref::StoreOp::create(b, loc, v, perThread[arg], ValueRange{t});
          return success();
        })))
      return failure();
    for (auto [result, arg] : llvm::zip(op.getResults(), op.getRegionIterArgs())) {
      // Copied out first: inserting `result` may grow the map, which would
      // leave a reference to arg's entry dangling.
      Value array = perThread.lookup(arg);
      perThread[result] = array;
    }
    return success();
  }

  LogicalResult lower(ArrayRef<Operation *> ops, Value mask) {
    SmallVector<Operation *> pending;
    for (Operation *op : ops) {
      if (!synchronizes(op)) {
        pending.push_back(op);
        continue;
      }
      if (failed(runOps(pending, mask)))
        return failure();
      pending.clear();
      LogicalResult done = success();
      if (isa<::mlir::gpu::BarrierOp>(op))
        done = success(); // the end of the thread loop is the barrier
      else if (auto s = dyn_cast<::mlir::gpu::ShuffleOp>(op))
        done = shuffle(s, mask);
      else if (auto i = dyn_cast<scf::IfOp>(op))
        done = branch(i, mask);
      else if (auto f = dyn_cast<scf::ForOp>(op))
        done = loop(f, mask);
      else
        done = op->emitError("kf-emulate-gpu-launches: a synchronization inside ")
               << op->getName() << " is not emulated";
      if (failed(done))
        return failure();
    }
    return runOps(pending, mask);
  }
};

} // namespace

LogicalResult emulateSynchronizedLaunch(::mlir::gpu::LaunchOp launch, bool reverseBlocks) {
  return Emulator(launch, reverseBlocks).run();
}

Value blockIndex(OpBuilder &b, Location loc, Value iv, Value bound, bool reverseBlocks) {
  if (!reverseBlocks)
    return iv;
  Value last = arith::SubIOp::create(b, loc, bound, arith::ConstantIndexOp::create(b, loc, 1));
  return arith::SubIOp::create(b, loc, last, iv);
}

} // namespace kfuse::gpu
