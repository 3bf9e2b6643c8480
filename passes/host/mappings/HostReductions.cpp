//===- HostReductions.cpp - full reductions over the CPU cores ------------===//
//
// A full reduction (sum of 1e7 values) on the host: blocks of one thread
// take contiguous chunks (one vector pass each, HostRowEmitter.h) and write
// one partial each; the last block to take a ticket (the scheme of
// LastBlockReductions.cpp, one counter per kernel) combines the partials in
// block order and runs the ops over the result. The number of blocks
// depends only on the size, so the result is the same bits whatever the
// thread count or the order the cores ran the blocks in.
//
// Fallback (the scalar mapping, gpu::mapGridReductionKernel with host):
// reductions over several loops (a 2-D tensor's full sum) and the cases
// isVectorizable refuses.
//
//===----------------------------------------------------------------------===//
#include "passes/host/mappings/HostMappings.h"
#include "passes/host/mappings/HostRowEmitter.h"
#include "passes/launch/LastBlockTicket.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace kfuse::host::rows;

namespace {

/// A full reduction over several loops whose ops before it read and write
/// whole buffers in order (identity maps, identity layouts): the same ops
/// over one loop on 1-D views of those buffers (memref.collapse_shape, at
/// `b`), so that one vector pass runs over all the elements. The new
/// generics are not inserted anywhere (the caller destroys them); the
/// fills and the ops after the reduction stay the kernel's. False (and
/// nothing to destroy) when the ops do not fit.
bool flatten(OpBuilder &b, Location loc, ArrayRef<linalg::LinalgOp> ops,
             linalg::GenericOp reduction, SmallVector<linalg::LinalgOp> &flat) {
  unsigned rank = reduction.getNumLoops();
  SmallVector<linalg::GenericOp> before;
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic)
      continue;
    if (generic.getNumLoops() != rank || !generic.getRegion().front().getOps<linalg::IndexOp>().empty())
      return false;
    for (OpOperand &operand : generic->getOpOperands()) {
      auto type = dyn_cast<MemRefType>(operand.get().getType());
      bool reductionInit = generic == reduction && generic.isDpsInit(&operand);
      if (!type || (!reductionInit && (!type.getLayout().isIdentity() || type.getRank() != rank ||
                                       !generic.getMatchingIndexingMap(&operand).isIdentity())))
        return false;
    }
    before.push_back(generic);
    if (generic == reduction)
      break;
  }
  DenseMap<Value, Value> views;
  auto view = [&](Value buffer) {
    Value &v = views[buffer];
    if (!v) {
      ReassociationIndices all;
      for (int64_t d = 0; d < rank; ++d)
        all.push_back(d);
      v = memref::CollapseShapeOp::create(b, loc, buffer, ArrayRef<ReassociationIndices>{all});
    }
    return v;
  };
  OpBuilder detached(b.getContext());
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || !llvm::is_contained(before, generic)) {
      flat.push_back(op);
      continue;
    }
    SmallVector<Value> inputs, outputs;
    SmallVector<AffineMap> maps;
    for (Value v : generic.getDpsInputs()) {
      inputs.push_back(view(v));
      maps.push_back(id);
    }
    for (OpOperand &init : generic.getDpsInitsMutable()) {
      if (generic == reduction) { // its one value: the same element
        int64_t r = cast<MemRefType>(init.get().getType()).getRank();
        outputs.push_back(init.get());
        maps.push_back(AffineMap::get(1, 0, SmallVector<AffineExpr>(r, getAffineConstantExpr(0, ctx)),
                                      ctx));
        continue;
      }
      outputs.push_back(view(init.get()));
      maps.push_back(id);
    }
    auto iterator = generic == reduction ? utils::IteratorType::reduction
                                         : utils::IteratorType::parallel;
    auto copy = linalg::GenericOp::create(detached, loc, inputs, outputs, maps, {iterator}, "", "");
    IRMapping m;
    generic.getRegion().cloneInto(&copy.getRegion(), m);
    flat.push_back(copy);
  }
  return true;
}

} // namespace

void kfuse::host::mapGridReductionKernel(OpBuilder &b, StringAttr name,
                                         ArrayRef<linalg::LinalgOp> ops,
                                         FlatSymbolRefAttr ticket) {
  linalg::LinalgOp first;
  Layout layout = kfuse::gpu::rows::layoutOf(ops, first);
  linalg::GenericOp reduction = gpu::rows::gridReductionOf(ops, layout);
  // Canonicalization on buffers may have made a dim static that the
  // decision saw dynamic: then it is a row kernel (as the GPU mapping does),
  // on the full reductions' lanes.
  if (!reduction)
    return mapRowKernel(b, name, ops, /*vectorBits=*/kLanes * 32);
  linalg::LinalgOp lastOp = ops.back();
  Location loc = lastOp.getLoc();
  // Several loops (a matrix's sum): over 1-D views where that fits.
  ArrayRef<linalg::LinalgOp> original = ops;
  SmallVector<linalg::LinalgOp> flat;
  auto destroyCopies = llvm::make_scope_exit([&] {
    for (linalg::LinalgOp op : flat)
      if (!op->getBlock())
        op->destroy();
  });
  if (layout.cols > 1 && flatten(b, loc, ops, reduction, flat)) {
    layout = kfuse::gpu::rows::layoutOf(flat, first);
    reduction = gpu::rows::gridReductionOf(flat, layout);
    ops = flat;
  }
  if (!reduction || !isVectorizable(ops, layout) ||
      passesOf(ops, layout).front().reduction != reduction)
    return gpu::mapGridReductionKernel(b, name, original, launch::HostLaunchTarget(), ticket);
  OpBuilder::InsertionGuard guard(b);
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value one = index(1);
  Value n = getValueOrCreateConstantIndexOp(
      b, loc, cast<linalg::LinalgOp>(reduction.getOperation()).createLoopRanges(b, loc)[0].size);
  // Chunks of at least kChunk elements (256 KiB of f32: a core's wake-up
  // and the partial are noise), at most kMaxBlocks of them (HostPool hands
  // them out a few at a time, which balances the cores); a multiple of 32
  // elements each, so that only the last block has a tail.
  constexpr int64_t kChunk = 65536, kMaxBlocks = 64;
  Value blocks = arith::MinUIOp::create(
      b, loc, arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, n, index(kChunk)), one),
      index(kMaxBlocks));
  Value c32 = index(kLanes * kUnroll);
  Value chunk = arith::MulIOp::create(
      b, loc,
      arith::CeilDivUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, n, blocks), c32), c32);
  Operation *combiner = gpu::combinerOf(reduction);
  Type type = combiner->getResult(0).getType();
  Value partials = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, type), ValueRange{blocks});
  auto launch = gpu::buildKernelLaunch(b, loc, name.getValue(), {blocks, one, one, one, one, one});
  {
    OpBuilder::InsertionGuard inLaunch(b);
    b.setInsertionPointToStart(&launch.getBody().front());
    Value bid = launch.getBlockIds().x;
    Value begin = arith::MinUIOp::create(b, loc, arith::MulIOp::create(b, loc, bid, chunk), n);
    Value end = arith::MinUIOp::create(b, loc, arith::AddIOp::create(b, loc, begin, chunk), n);
    SmallVector<Pass> passes = passesOf(ops, layout);
    HostRowEmitter emit(b, loc, layout, ops, kLanes);
    Value partial = emit.run(passes.front(), begin, end);
    memref::StoreOp::create(b, loc, partial, partials, ValueRange{bid});
    auto lastBlock = scf::IfOp::create(
        b, loc, kfuse::launch::takeLastTicket(b, loc, ticket, launch.getGridSize().x), false);
    b.setInsertionPointToStart(&lastBlock.getThenRegion().front());
    // The partials in block order; a float sum compensated (64 terms).
    Value identity =
        arith::ConstantOp::create(b, loc, gpu::rows::initialValue(reduction, ops).getValue());
    bool isSum = isa<arith::AddFOp>(combiner);
    auto loop = scf::ForOp::create(
        b, loc, index(0), launch.getGridSize().x, one,
        isSum ? ValueRange{identity, identity} : ValueRange{identity},
        [&](OpBuilder &nested, Location, Value i, ValueRange acc) {
          OpBuilder::InsertionGuard body(b);
          b.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
          Value p = memref::LoadOp::create(b, loc, partials, ValueRange{i});
          if (isSum) {
            auto [s, l] = lowering::compensatedAdd(b, loc, acc[0], acc[1], p);
            scf::YieldOp::create(b, loc, ValueRange{s, l});
            return;
          }
          IRMapping m;
          m.map(combiner->getOperand(0), acc[0]);
          m.map(combiner->getOperand(1), p);
          scf::YieldOp::create(b, loc, b.clone(*combiner, m)->getResult(0));
        });
    Value total = isSum ? arith::SubFOp::create(b, loc, loop.getResult(0), loop.getResult(1))
                        : loop.getResult(0);
    memref::StoreOp::create(
        b, loc, total, reduction.getDpsInits()[0],
        gpu::indices(b, loc, reduction.getMatchingIndexingMap(reduction.getDpsInitOperand(0)),
                     emit.ivs(index(0))));
    // The ops over the result (one value: no rows).
    for (const Pass &pass : ArrayRef(passes).drop_front())
      runRowPass(b, loc, layout, ops, pass, {}, {n}, {index(0)}, index(0), n, n,
                 DenseMap<Value, Value>(), {Value()}, DenseMap<Value, linalg::GenericOp>(),
                 /*vectorBits=*/kLanes * 32);
    gpu::finishLaunch(b, loc, launch);
  }
  memref::DeallocOp::create(b, loc, partials);
}
