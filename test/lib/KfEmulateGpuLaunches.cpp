//===- KfEmulateGpuLaunches.cpp - gpu.launch as host loops, for tests -----===//
//
// Upstream has no way to run gpu.launch on a machine without a GPU. Every
// thread of kfuse's pointwise kernels is independent (no barrier, shuffle or
// shared memory), so running the threads one after the other in loops
// computes the same result; this is how the suite executes the GPU
// mapping on the CPU.
//
//===----------------------------------------------------------------------===//
#include "test/lib/TestPasses.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "test/lib/SimtEmulation.h"

#include "mlir/IR/IRMapping.h"

namespace kfuse {
#define GEN_PASS_DEF_KFEMULATEGPULAUNCHES
#include "test/lib/TestPasses.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

bool hasCrossThreadOps(gpu::LaunchOp launch) {
  return launch.getBody()
      .walk([](Operation *op) {
        return isa<gpu::BarrierOp, gpu::ShuffleOp>(op) ? WalkResult::interrupt()
                                                        : WalkResult::advance();
      })
      .wasInterrupted() ||
         !launch.getWorkgroupAttributions().empty();
}

LogicalResult emulate(gpu::LaunchOp launch, bool reverseBlocks) {
  if (launch.getAsyncToken())
    return launch.emitError("kf-emulate-gpu-launches: an async launch");
  if (hasCrossThreadOps(launch))
    return kfuse::gpu::emulateSynchronizedLaunch(launch, reverseBlocks);
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  IRMapping mapping;
  gpu::KernelDim3 gridArgs = launch.getGridSize(), blockArgs = launch.getBlockSize();
  for (auto [arg, v] : llvm::zip(SmallVector<Value>{gridArgs.x, gridArgs.y, gridArgs.z,
                                                   blockArgs.x, blockArgs.y, blockArgs.z},
                                 SmallVector<Value>{grid.x, grid.y, grid.z,
                                                    block.x, block.y, block.z}))
    mapping.map(arg, v);
  // Loops over block z, y, x, then thread z, y, x.
  gpu::KernelDim3 blockIds = launch.getBlockIds(), threadIds = launch.getThreadIds();
  SmallVector<std::pair<Value, Value>> loops = {
      {blockIds.z, grid.z},  {blockIds.y, grid.y},  {blockIds.x, grid.x},
      {threadIds.z, block.z}, {threadIds.y, block.y}, {threadIds.x, block.x}};
  for (auto [i, loopOver] : llvm::enumerate(loops)) {
    auto [id, bound] = loopOver;
    auto loop = scf::ForOp::create(b, loc, zero, bound, one);
    b.setInsertionPointToStart(loop.getBody());
    bool isBlock = i < 3;
    mapping.map(id, isBlock ? kfuse::gpu::blockIndex(b, loc, loop.getInductionVar(), bound,
                                                     reverseBlocks)
                            : loop.getInductionVar());
  }
  for (Operation &op : launch.getBody().front().without_terminator())
    b.clone(op, mapping);
  launch.erase();
  return success();
}

struct KfEmulateGpuLaunchesPass
    : kfuse::impl::KfEmulateGpuLaunchesBase<KfEmulateGpuLaunchesPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation()->walk([&](gpu::LaunchOp l) { launches.push_back(l); });
    for (gpu::LaunchOp launch : launches)
      if (failed(emulate(launch, reverseBlocks)))
        return signalPassFailure();
  }
};

} // namespace
