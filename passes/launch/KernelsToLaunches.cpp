//===- KernelsToLaunches.cpp - each kernel as its launch, any target ------===//
#include "passes/launch/KernelsToLaunches.h"

#include "passes/launch/LastBlockTicket.h"
#include "passes/launch/MappingUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

using namespace mlir;
using namespace kfuse::launch;
using kfuse::kf::KernelMapping;
using kfuse::kf::KernelOp;

KernelLauncher::~KernelLauncher() = default;

namespace {

/// Runs the ops of a kernel no mapping serves (the serial mapping, the
/// host runtime's fallback) as one launch of one thread: the ops move into
/// the launch unchanged and become loops later. The same on every target,
/// so the mechanism's, not a launcher's.
void launchSerially(RewriterBase &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops) {
  OpBuilder::InsertionGuard guard(b);
  linalg::LinalgOp last = ops.back();
  Location loc = last.getLoc();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch =
      kfuse::gpu::buildKernelLaunch(b, loc, name.getValue(), {one, one, one, one, one, one});
  b.setInsertionPointToStart(&launch.getBody().front());
  auto terminator = mlir::gpu::TerminatorOp::create(b, loc);
  for (linalg::LinalgOp op : ops)
    b.moveOpBefore(op, terminator);
}

/// Fills as generics without inputs (the value used from above), so that
/// the flat mapping runs them.
SmallVector<linalg::GenericOp> generalizeFills(RewriterBase &rewriter,
                                               ArrayRef<linalg::LinalgOp> ops) {
  SmallVector<linalg::GenericOp> generics;
  for (linalg::LinalgOp op : ops) {
    auto fill = dyn_cast<linalg::FillOp>(op.getOperation());
    if (!fill) {
      generics.push_back(cast<linalg::GenericOp>(op.getOperation()));
      continue;
    }
    rewriter.setInsertionPoint(fill);
    Value dest = fill.getDpsInits()[0], value = fill.getInputs()[0];
    unsigned rank = cast<MemRefType>(dest.getType()).getRank();
    auto generic = linalg::GenericOp::create(
        rewriter, fill.getLoc(), TypeRange(), ValueRange(), dest,
        rewriter.getMultiDimIdentityMap(rank),
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location loc, ValueRange) {
          linalg::YieldOp::create(nb, loc, value);
        });
    generic->setDiscardableAttrs(fill->getDiscardableAttrDictionary());
    rewriter.eraseOp(fill);
    generics.push_back(generic);
  }
  return generics;
}

/// A reduction or matmul kernel that lost its reduction: over an empty dim
/// (a static 0, or K = 0) it iterates over nothing, and upstream's
/// canonicalization on buffers erases it (EraseDeadLinalgOp). What is left,
/// the fill of its result and the ops after it, runs flat.
bool lostItsReduction(KernelMapping mapping, ArrayRef<linalg::LinalgOp> ops) {
  if (mapping == KernelMapping::Flat || mapping == KernelMapping::Serial)
    return false;
  return llvm::none_of(ops, [](linalg::LinalgOp op) { return op.getNumReductionLoops() > 0; });
}

/// A bufferized kernel, its linalg ops collected in program order, becomes
/// its launch (the launcher's), built before the kernel, which is then
/// erased.
struct KernelToLaunch : OpRewritePattern<KernelOp> {
  KernelToLaunch(MLIRContext *ctx, StringRef pass, const KernelLauncher &launcher,
                 const Tickets &tickets)
      : OpRewritePattern<KernelOp>(ctx), pass(pass), launcher(launcher), tickets(tickets) {}

  LogicalResult matchAndRewrite(KernelOp kernel, PatternRewriter &rewriter) const final {
    std::optional<KernelMapping> mapping = kernel.getMapping();
    if (!mapping || kernel->getNumResults())
      return failure();
    SmallVector<linalg::LinalgOp> ops;
    for (Operation &op : kernel.getBody().front().without_terminator()) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      if (!linalgOp || !linalgOp.hasPureBufferSemantics())
        return op.emitError() << pass << ": kernel '" << kernel.getSymName() << "' holds a "
                              << op.getName().getStringRef() << ", which its launch cannot run";
      ops.push_back(linalgOp);
    }
    // Canonicalization on buffers erases ops that iterate over nothing (a
    // static 0 dim): a kernel with none left launches nothing.
    if (ops.empty()) {
      rewriter.eraseOp(kernel);
      return success();
    }
    rewriter.setInsertionPoint(kernel);
    if (failed(launch(kernel, *mapping, ops, rewriter)))
      return failure();
    rewriter.eraseOp(kernel);
    return success();
  }

  LogicalResult launch(KernelOp kernel, KernelMapping mapping, ArrayRef<linalg::LinalgOp> ops,
                       PatternRewriter &rewriter) const {
    StringAttr name = kernel.getSymNameAttr();
    if (mapping == KernelMapping::Flat || lostItsReduction(mapping, ops)) {
      for (linalg::LinalgOp op : ops)
        if (!isa<linalg::GenericOp, linalg::FillOp>(op.getOperation()))
          return op->emitError() << pass << ": kernel '" << kernel.getSymName() << "' holds a "
                                 << op->getName().getStringRef() << ", not a pointwise generic";
      // A small reduction's accumulator fill runs as an op over its result.
      SmallVector<linalg::GenericOp> generics = generalizeFills(rewriter, ops);
      rewriter.setInsertionPoint(kernel);
      return launcher.flat(rewriter, name, generics);
    }
    switch (mapping) {
    case KernelMapping::Row:
      return launcher.row(rewriter, kernel, ops);
    case KernelMapping::GridReduction:
      return launcher.gridReduction(rewriter, name, ops, tickets.lookup(kernel));
    case KernelMapping::RowChain:
      return launcher.rowChain(rewriter, kernel, ops, tickets.lookup(kernel));
    case KernelMapping::Matmul:
      return launcher.matmul(rewriter, kernel, ops);
    case KernelMapping::Attention:
      return launcher.attention(rewriter, name, ops);
    case KernelMapping::MultiReduction:
      return launcher.multiReduction(rewriter, name, ops, tickets.lookup(kernel));
    case KernelMapping::Scan:
      return launcher.scan(rewriter, name, ops);
    case KernelMapping::Serial:
      launchSerially(rewriter, name, ops);
      return success();
    case KernelMapping::Flat:
      break;
    }
    llvm_unreachable("a kernel mapping without a launch");
  }

  StringRef pass;
  const KernelLauncher &launcher;
  const Tickets &tickets;
};

/// Buffers no launch touches any more: an intermediate that a mapping
/// keeps on chip (a softmax's exp, a layer_norm's x - mean) was allocated
/// for the kernel on tensors and is now only freed. Erased with its
/// deallocs, so that the device allocates nothing it never uses.
void eraseUnusedBuffers(ModuleOp module) {
  SmallVector<memref::AllocOp> unused;
  module->walk([&](memref::AllocOp alloc) {
    if (llvm::all_of(alloc->getUsers(), [](Operation *user) { return isa<memref::DeallocOp>(user); }))
      unused.push_back(alloc);
  });
  for (memref::AllocOp alloc : unused) {
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      user->erase();
    alloc->erase();
  }
}

} // namespace

LogicalResult kfuse::launch::mapKernelsToLaunches(ModuleOp module, StringRef pass,
                                                  const KernelLauncher &launcher,
                                                  const MappingStatistics &statistics) {
  static_assert(kf::getMaxEnumValForKernelMapping() + 1 == std::tuple_size_v<MappingStatistics>,
                "a statistic a mapping");
  bool ready = true;
  module->walk([&](KernelOp kernel) {
    std::optional<KernelMapping> mapping = kernel.getMapping();
    if (!mapping) {
      kernel.emitError() << pass << ": kernel '" << kernel.getSymName()
                         << "' has no mapping (kf-assign-kernel-mappings decides it)";
      ready = false;
    } else if (kernel->getNumResults()) {
      kernel.emitError() << pass << ": kernel '" << kernel.getSymName()
                         << "' is not bufferized (one-shot-bufferize, then "
                            "kf-hoist-kernel-buffers)";
      ready = false;
    } else {
      ++*statistics[static_cast<unsigned>(*mapping)];
    }
  });
  if (!ready)
    return failure();
  Tickets tickets = createTickets(module);
  RewritePatternSet patterns(module.getContext());
  patterns.add<KernelToLaunch>(module.getContext(), pass, launcher, tickets);
  walkAndApplyPatterns(module, std::move(patterns));
  kf::removeBoundaries(module); // the kernels are launches
  eraseUnusedBuffers(module);
  // A launcher that refused its kernel said why; the kernel is still here.
  return failure(module->walk([](KernelOp) { return WalkResult::interrupt(); }).wasInterrupted());
}
