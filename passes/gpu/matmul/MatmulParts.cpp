//===- MatmulParts.cpp - what a matmul kernel is made of ------------------===//
//
// The analysis of a matmul kernel (on tensors, once) and the pieces every
// matmul emitter shares: operand reads through the contraction's indexing
// maps (either operand transposed in place, batch dims of its own or
// broadcast: an operand without a batch dim reads the same matrix for
// every batch, without a copy), the batch loop over grid z, and the
// epilogue applied in registers.
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/matmul/MatmulParts.h"

#include "passes/analysis/MatmulChain.h"
#include "passes/launch/MappingUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace kfuse::gpu::matmul {

namespace {

Value filled(linalg::FillOp fill) {
  return fill.hasPureTensorSemantics() ? fill.getResult(0) : fill.getDpsInits()[0];
}

/// Whether `op` contracts as a (batched) matmul: loops (batch..., m, n, k),
/// the last the one reduction, the result [batch..., m, n], each operand
/// [its batch dims..., m, k] / [.., k, n] or transposed in its last two
/// dims. Sets the batch count and the layouts.
LogicalResult readLayouts(linalg::LinalgOp op, Parts &parts) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 || op.getNumLoops() < 3 ||
      op.getNumReductionLoops() != 1)
    return failure();
  unsigned loops = op.getNumLoops(), nb = loops - 3;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators.back() != utils::IteratorType::reduction)
    return failure();
  MLIRContext *ctx = op.getContext();
  auto dim = [&](unsigned d) { return getAffineDimExpr(d, ctx); };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<AffineExpr> out;
  for (unsigned d = 0; d < nb + 2; ++d)
    out.push_back(dim(d));
  if (maps[2] != AffineMap::get(loops, 0, out, ctx))
    return failure();
  AffineExpr m = dim(nb), n = dim(nb + 1), k = dim(nb + 2);
  AffineExpr plain[2][2] = {{m, k}, {k, n}};
  for (unsigned o = 0; o < 2; ++o) {
    ArrayRef<AffineExpr> results = maps[o].getResults();
    if (results.size() < 2)
      return failure();
    // The batch dims an operand has, in order (a broadcast one is absent).
    int64_t previous = -1;
    for (AffineExpr e : results.drop_back(2)) {
      auto d = dyn_cast<AffineDimExpr>(e);
      if (!d || d.getPosition() >= nb || (int64_t)d.getPosition() <= previous)
        return failure();
      previous = d.getPosition();
    }
    auto [i, j] = plain[o];
    AffineExpr r0 = results[results.size() - 2], r1 = results.back();
    if (r0 == i && r1 == j)
      parts.transposed[o] = false;
    else if (r0 == j && r1 == i)
      parts.transposed[o] = true;
    else
      return failure();
  }
  parts.batch = nb;
  return success();
}

/// Whether something other than the kernel's own ops (and its free) reads
/// the matmul's result buffer: then it is stored.
bool resultReadOutside(const Parts &parts) {
  Value c = parts.c();
  if (!c.getDefiningOp<memref::AllocOp>())
    return true; // a view or an argument: someone else sees it
  Operation *kernel = parts.matmul->getParentOp();
  return llvm::any_of(c.getUsers(), [&](Operation *user) {
    return !isa<memref::DeallocOp>(user) && !kernel->isAncestor(user);
  });
}

} // namespace

/// Sorts `ops` into fills, contractions and elementwise ops after the
/// first contraction, and gives each contraction its fill: the last one
/// before it that writes its init. The last contraction is `parts`' own,
/// the others its chain.
static LogicalResult sortParts(ArrayRef<linalg::LinalgOp> ops,
                               function_ref<InFlightDiagnostic()> refuse, Parts &parts) {
  SmallVector<linalg::FillOp> fills;
  SmallVector<linalg::LinalgOp> matmuls;
  SmallVector<linalg::FillOp> startedBy;
  for (linalg::LinalgOp op : ops) {
    if (auto fill = dyn_cast<linalg::FillOp>(op.getOperation())) {
      fills.push_back(fill);
    } else if (op.getNumReductionLoops()) {
      linalg::FillOp start;
      for (linalg::FillOp fill : fills)
        if (filled(fill) == op.getDpsInits()[0])
          start = fill;
      matmuls.push_back(op);
      startedBy.push_back(start);
    } else if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation())) {
      if (matmuls.empty())
        return refuse() << "an op before the matmul (a prologue)";
      parts.epilogue.push_back(generic);
    } else {
      return refuse() << "it holds a " << op->getName().getStringRef();
    }
  }
  if (matmuls.empty())
    return refuse() << "it holds no matmul";
  if (llvm::is_contained(startedBy, linalg::FillOp()))
    return refuse() << "the matmul does not start from a constant fill";
  if (fills.size() != matmuls.size())
    return refuse() << "a fill that does not start a matmul of its own";
  for (auto [i, m] : llvm::enumerate(matmuls)) {
    Parts &step = i + 1 < matmuls.size() ? parts.chain.emplace_back() : parts;
    step.matmul = m;
    step.fill = startedBy[i];
    step.storeResult = false;
    if (failed(readLayouts(m, step)))
      return refuse() << "the matmul's operands are permuted other than transposed, or "
                         "it is not a (batched) matmul";
  }
  return success();
}

LogicalResult analyze(ArrayRef<linalg::LinalgOp> ops, function_ref<InFlightDiagnostic()> refuse,
                      Parts &parts) {
  if (failed(sortParts(ops, refuse, parts)))
    return failure();
  if (!parts.chain.empty()) {
    SmallVector<linalg::LinalgOp> matmuls;
    for (const Parts *step : parts.steps())
      matmuls.push_back(step->matmul);
    llvm::DenseSet<Operation *> inside;
    for (linalg::LinalgOp op : ops)
      inside.insert(op);
    std::string why;
    if (!analysis::matchMatmulChain(
            matmuls, [&](Operation *op) { return inside.contains(op); }, &why))
      return refuse() << "its matmuls are not a chain of sums: " << why;
  }
  for (const Parts *step : parts.steps())
    if (!step->fill.getInputs()[0].getDefiningOp<arith::ConstantOp>())
      return refuse() << "the matmul does not start from a constant fill";
  SmallVector<int64_t> sizes = parts.matmul.getStaticLoopRanges();
  sizes.pop_back(); // K: the epilogue iterates over the result
  llvm::DenseSet<Value> written;
  for (const Parts *step : parts.steps()) {
    written.insert(step->c());
    if (step->matmul->getNumResults())
      written.insert(step->matmul->getResult(0));
  }
  for (linalg::GenericOp g : parts.epilogue) {
    SmallVector<int64_t> own = g.getStaticLoopRanges();
    bool same = own.size() == sizes.size();
    for (unsigned d = 0; same && d < own.size(); ++d)
      same = own[d] == sizes[d] || ShapedType::isDynamic(own[d]) ||
             ShapedType::isDynamic(sizes[d]);
    if (g.getNumReductionLoops() || !same)
      return refuse() << "an epilogue op is not elementwise over the matmul's result";
    for (OpOperand &init : g.getDpsInitsMutable())
      if (!g.getMatchingIndexingMap(&init).isIdentity())
        return refuse() << "a result is not written in iteration order";
    for (OpOperand *input : g.getDpsInputOperands())
      if (written.count(input->get()) && !g.getMatchingIndexingMap(input).isIdentity())
        return refuse() << "an op reads another's result at other elements";
    for (Value v : g.getDpsInits())
      written.insert(v);
    for (Value v : g->getResults())
      written.insert(v);
  }
  return success();
}

Parts partsOf(ArrayRef<linalg::LinalgOp> ops) {
  Parts parts;
  auto never = []() -> InFlightDiagnostic { llvm_unreachable("checked on tensors"); };
  (void)sortParts(ops, never, parts);
  // Without an epilogue the matmul's result is the kernel's result.
  parts.storeResult = parts.epilogue.empty() || resultReadOutside(parts);
  return parts;
}

SmallVector<const Parts *> Parts::steps() const {
  SmallVector<const Parts *> all;
  for (const Parts &step : chain)
    all.push_back(&step);
  all.push_back(this);
  return all;
}

SmallVector<Value> stepKs(OpBuilder &b, Location loc, const Parts &parts) {
  SmallVector<Value> ks;
  for (const Parts *step : parts.steps())
    ks.push_back(loopSizes(b, loc, *step)[parts.batch + 2]);
  return ks;
}

SmallVector<Value> loopSizes(OpBuilder &b, Location loc, const Parts &parts) {
  SmallVector<Value> sizes;
  for (Range r : parts.matmul.createLoopRanges(b, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
  return sizes;
}

SmallVector<Value> Access::at(OpBuilder &b, Location loc, unsigned o, Value m, Value n,
                              Value k) const {
  SmallVector<Value> ivs(batchIvs.begin(), batchIvs.end());
  ivs.append({m ? m : zero, n ? n : zero, k ? k : zero});
  return indices(b, loc, parts.matmul.getIndexingMapsArray()[o], ivs);
}

/// A value of operand `o` at loop indices (m, n, k) when `inside`, else
/// `zero`.
static Value loadOrZero(OpBuilder &b, Location loc, const Access &x, unsigned o, Value m,
                        Value n, Value k, Value inside, Value zero) {
  auto branch = scf::IfOp::create(b, loc, zero.getType(), inside, true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&branch.getThenRegion().front());
  Value operand = o == 0 ? x.parts.a() : x.parts.b();
  scf::YieldOp::create(
      b, loc, memref::LoadOp::create(b, loc, operand, x.at(b, loc, o, m, n, k)).getResult());
  b.setInsertionPointToStart(&branch.getElseRegion().front());
  scf::YieldOp::create(b, loc, zero);
  return branch.getResult(0);
}

static Value below(OpBuilder &b, Location loc, Value i, Value n, Value j, Value n2) {
  return arith::AndIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, i, n),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, j, n2));
}

Value Access::loadA(OpBuilder &b, Location loc, Value m, Value k, Value M, Value K,
                    Value zero) const {
  return loadOrZero(b, loc, *this, 0, m, Value(), k, below(b, loc, m, M, k, K), zero);
}

Value Access::loadB(OpBuilder &b, Location loc, Value k, Value n, Value K, Value N,
                    Value zero) const {
  return loadOrZero(b, loc, *this, 1, Value(), n, k, below(b, loc, k, K, n, N), zero);
}

void Access::finish(OpBuilder &b, Location loc, Value acc, Value row, Value col) const {
  Value c = parts.c();
  SmallVector<Value> ivs(batchIvs.begin(), batchIvs.end());
  ivs.append({row, col});
  if (parts.storeResult)
    memref::StoreOp::create(b, loc, acc, c, ivs);
  // A chain's earlier products are in `acc`: their results read as 0.
  llvm::DenseMap<Value, Value> inRegister;
  for (const Parts &step : parts.chain) {
    Type type = cast<MemRefType>(step.c().getType()).getElementType();
    inRegister[step.c()] = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  }
  inRegister[c] = acc;
  for (linalg::GenericOp g : parts.epilogue) {
    IRMapping mapping;
    Block &body = g.getRegion().front();
    for (OpOperand *input : g.getDpsInputOperands()) {
      BlockArgument arg = body.getArgument(input->getOperandNumber());
      if (arg.use_empty())
        continue;
      AffineMap map = g.getMatchingIndexingMap(input);
      auto it = inRegister.find(input->get());
      if (map.isIdentity() && it != inRegister.end()) {
        mapping.map(arg, it->second);
        continue;
      }
      mapping.map(arg, memref::LoadOp::create(b, loc, input->get(), indices(b, loc, map, ivs)));
    }
    SmallVector<Value> results = cloneBody(b, g, mapping, ivs);
    for (auto [v, init] : llvm::zip(results, g.getDpsInits())) {
      memref::StoreOp::create(b, loc, v, init, ivs);
      inRegister[init] = v;
    }
  }
}

Value multiplyAdd(OpBuilder &b, const Parts &parts, Value a, Value bv, Value acc) {
  Block &body = parts.matmul->getRegion(0).front();
  IRMapping mapping;
  mapping.map(body.getArgument(0), a);
  mapping.map(body.getArgument(1), bv);
  mapping.map(body.getArgument(2), acc);
  return cloneBody(b, parts.matmul, mapping, {}).front();
}

Value initialValue(OpBuilder &b, Location loc, const Parts &parts) {
  auto fill = parts.steps().front()->fill.getInputs()[0].getDefiningOp<arith::ConstantOp>();
  return arith::ConstantOp::create(b, loc, fill.getValue());
}

Value tilesOf(OpBuilder &b, Location loc, Value n, int64_t tile) {
  Value t = arith::ConstantIndexOp::create(b, loc, tile);
  return arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, n, t),
                                arith::ConstantIndexOp::create(b, loc, 1));
}

Value batchGrid(OpBuilder &b, Location loc, ArrayRef<Value> sizes, const Parts &parts) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  if (!parts.batch)
    return one;
  Value batches = product(b, loc, sizes.take_front(parts.batch));
  // An empty batch launches one block that computes nothing (the loop in
  // forEachBatch runs zero times).
  return arith::MaxUIOp::create(
      b, loc, arith::MinUIOp::create(b, loc, batches, arith::ConstantIndexOp::create(b, loc, 65535)),
      one);
}

void forEachBatch(OpBuilder &b, Location loc, ::mlir::gpu::LaunchOp launch,
                  ArrayRef<Value> sizes, const Parts &parts,
                  function_ref<void(ArrayRef<Value>)> body) {
  if (!parts.batch)
    return body({});
  ArrayRef<Value> batchSizes = sizes.take_front(parts.batch);
  Value batches = product(b, loc, batchSizes);
  auto loop = scf::ForOp::create(b, loc, launch.getBlockIds().z, batches,
                                 launch.getGridSize().z);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  body(delinearize(b, loc, loop.getInductionVar(), batchSizes));
}

} // namespace kfuse::gpu::matmul
