//===- HostRowEmitter.cpp - vector passes over a row on a CPU core --------===//
#include "passes/host/mappings/HostRowEmitter.h"


#include <functional>

using namespace mlir;
using namespace kfuse::host::rows;
using kfuse::gpu::rows::isReduction;

SmallVector<Pass> kfuse::host::rows::passesOf(ArrayRef<linalg::LinalgOp> ops,
                                              const Layout &layout) {
  SmallVector<Pass> out;
  Pass cur;
  auto flush = [&] {
    if (!cur.elementwise.empty() || cur.reduction || cur.rowOp)
      out.push_back(cur);
    cur = Pass();
  };
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic)
      continue; // fills: each reduction starts from its identity
    if (isReduction(op)) {
      cur.reduction = generic;
      flush();
    } else if (layout.isRowOp(generic)) {
      flush();
      cur.rowOp = generic;
      flush();
    } else {
      cur.elementwise.push_back(generic);
    }
  }
  flush();
  return out;
}

/// Whether `map` reads the columns (loop `colDim`) in its last index only:
/// consecutive columns are consecutive elements.
static bool alongLastIndex(AffineMap map, unsigned colDim) {
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  return last && last.getPosition() == colDim &&
         llvm::none_of(map.getResults().drop_back(),
                       [&](AffineExpr e) { return e.isFunctionOfDim(colDim); });
}

/// Whether `map` reads the columns (loop `colDim`) at one index that is
/// not the last (the others not functions of it): consecutive columns are
/// a stride apart, and a vector of them is gathered (`x[j, c]` for a row
/// over j: the unrolled sums of a neighbour distance).
static bool alongOtherIndex(AffineMap map, unsigned colDim) {
  return llvm::count_if(map.getResults(), [&](AffineExpr e) {
           return e.isFunctionOfDim(colDim);
         }) == 1 &&
         map.getResultPosition(getAffineDimExpr(colDim, map.getContext())).has_value();
}

int64_t kfuse::host::rows::rowLanes(const Pass &pass, unsigned vectorBits,
                                    std::optional<int64_t> staticCols) {
  if (vectorBits < 512 || (staticCols && *staticCols < 64 && *staticCols % (2 * kLanes)))
    return kLanes;
  // Indices (linalg.index, gathers' i64) are 64 bits too.
  auto narrow = [](Type t) {
    Type e = getElementTypeOrSelf(t);
    return !e.isIntOrIndexOrFloat() || (!e.isIndex() && e.getIntOrFloatBitWidth() <= 32);
  };
  // A reduction's own types decide (its order of additions must not
  // depend on the ops fused before it); a pass without one, its ops'.
  SmallVector<linalg::GenericOp> ops(pass.elementwise);
  if (pass.reduction)
    ops = {pass.reduction};
  for (linalg::GenericOp op : ops) {
    bool wide = false;
    op->walk([&](Operation *inner) {
      for (Type t : inner->getOperandTypes())
        wide |= !narrow(t);
      for (Type t : inner->getResultTypes())
        wide |= !narrow(t);
    });
    for (Value arg : op->getRegion(0).getArguments())
      wide |= !narrow(arg.getType());
    if (wide)
      return kLanes;
  }
  return 2 * kLanes;
}

static bool isLaneType(Type t) {
  return t.isIndex() || (t.isIntOrFloat() && t.getIntOrFloatBitWidth() >= 8);
}

bool kfuse::host::rows::isVectorizable(ArrayRef<linalg::LinalgOp> ops, const Layout &layout,
                                       std::string *why) {
  auto no = [&](const char *reason) {
    if (why)
      *why = reason;
    return false;
  };
  if (layout.cols != 1 || layout.isRowDim.empty() || layout.isRowDim.back())
    return no("its columns are not one innermost loop");
  unsigned colDim = layout.isRowDim.size() - 1;
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic) {
      if (isa<linalg::FillOp>(op.getOperation()))
        continue;
      return no("it holds an op other than generics and fills");
    }
    if (!isReduction(op) && layout.isRowOp(generic))
      continue; // scalar code, once a row
    if (generic.getNumLoops() != layout.isRowDim.size())
      return no("an op is not over rows and columns");
    Block &body = generic.getRegion().front();
    for (OpOperand &operand : generic->getOpOperands()) {
      auto type = dyn_cast<MemRefType>(operand.get().getType());
      if (!type || !isLaneType(type.getElementType()))
        return no("an operand is no memref of bytes-wide elements");
      bool isInit = generic.isDpsInit(&operand);
      if (isInit && isReduction(op))
        continue; // the row's value, stored once
      if (isInit && !body.getArgument(operand.getOperandNumber()).use_empty())
        return no("an elementwise op reads its output");
      AffineMap map = generic.getMatchingIndexingMap(&operand);
      if (!map.isFunctionOfDim(colDim))
        continue; // a value of the row
      // A result written through a permutation (a transposed epilogue) is
      // staged in scratch rows and written out in tiles (mapRowKernel).
      if (!alongLastIndex(map, colDim) && !(isInit && map.isPermutation()) &&
          !(!isInit && alongOtherIndex(map, colDim)))
        return no("an access along the columns is not the last index");
      SmallVector<int64_t> strides;
      int64_t offset;
      if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
        return no("an access along the columns is not unit-stride");
    }
    // Masked loads fill the lanes past the row with 1 (body()).
    if (!VectorCloner::vectorizes(generic, TailLanes::Ones, /*withIndex=*/true))
      return no("a body op has no vector form here");
  }
  return true;
}

/// A splat constant of `type` (a vector of floats or integers).
static Value splat(OpBuilder &b, Location loc, VectorType type, double f) {
  Type e = type.getElementType();
  TypedAttr attr = isa<FloatType>(e) ? TypedAttr(b.getFloatAttr(e, f))
                                     : TypedAttr(b.getIntegerAttr(e, (int64_t)f));
  return arith::ConstantOp::create(b, loc, SplatElementsAttr::get(type, attr));
}

SmallVector<Value> HostRowEmitter::ivs(Value c) {
  SmallVector<Value> out(rowIvs.begin(), rowIvs.end());
  out.push_back(c);
  return out;
}

Value HostRowEmitter::broadcast(Value v) {
  if (isa<VectorType>(v.getType()))
    return v;
  return vector::BroadcastOp::create(b, loc, vectorOf(v.getType()), v);
}

SmallVector<Value> HostRowEmitter::vectorizeBody(linalg::GenericOp op, IRMapping &m, Value c) {
  unsigned colDim = layout.isRowDim.size() - 1;
  // linalg.index: the row's index, or the lanes' columns.
  auto index = [&](unsigned dim) {
    Value v = ivs(c)[dim];
    if (dim == colDim)
      v = arith::AddIOp::create(b, loc, broadcast(v),
                                vector::StepOp::create(b, loc, vectorOf(b.getIndexType())));
    return v;
  };
  VectorCloner cloner(b, loc, lanes);
  return cloner.cloneBody(op, m, index, isReduction(op) ? gpu::combinerOf(op) : nullptr);
}

SmallVector<linalg::GenericOp> HostRowEmitter::recomputedFor(ArrayRef<linalg::GenericOp> ops) {
  SmallVector<linalg::GenericOp> out;
  std::function<void(linalg::GenericOp)> visit = [&](linalg::GenericOp op) {
    for (OpOperand *input : op.getDpsInputOperands()) {
      linalg::GenericOp writer = recompute.lookup(input->get());
      if (!writer || llvm::is_contained(ops, writer) || llvm::is_contained(out, writer))
        continue;
      visit(writer);
      out.push_back(writer);
    }
  };
  for (linalg::GenericOp op : ops)
    visit(op);
  return out;
}

Value HostRowEmitter::body(const Pass &pass, Value c, Value mask,
                           const DenseSet<Value> &privateBuffers, const IRMapping &rowValues) {
  DenseMap<Value, Value> inRegisters; // buffer -> this vector of it
  SmallVector<Value> at = ivs(c);
  std::function<void(linalg::GenericOp, IRMapping &)> loadInputs;
  // A recomputed buffer's writer run again on this vector (its inputs
  // loaded or recomputed in turn): its values go to registers only.
  auto recomputeWriter = [&](linalg::GenericOp writer) {
    IRMapping m;
    loadInputs(writer, m);
    SmallVector<Value> results = vectorizeBody(writer, m, c);
    for (auto [v, init] : llvm::zip(results, writer.getDpsInits()))
      inRegisters[init] = broadcast(v);
  };
  loadInputs = [&](linalg::GenericOp op, IRMapping &m) {
    Block &body = op.getRegion().front();
    for (OpOperand *input : op.getDpsInputOperands()) {
      BlockArgument arg = body.getArgument(input->getOperandNumber());
      if (arg.use_empty())
        continue;
      if (Value v = rowValues.lookupOrNull(arg)) {
        m.map(arg, v);
        continue;
      }
      AffineMap map = op.getMatchingIndexingMap(input);
      Value buffer = input->get();
      if (Value v = inRegisters.lookup(buffer); v && map.isIdentity()) {
        m.map(arg, v);
        continue;
      }
      if (linalg::GenericOp writer = recompute.lookup(buffer); writer && map.isIdentity()) {
        recomputeWriter(writer);
        m.map(arg, inRegisters.lookup(buffer));
        continue;
      }
      VectorType type = vectorOf(arg.getType());
      SmallVector<Value> index = gpu::indices(b, loc, map, at);
      if (Value row = scratch.lookup(buffer)) {
        buffer = row;
        index = {scratchRow, c};
      }
      // Lanes past the row read 1, not 0: an integer division there must
      // not trap (their values are dropped).
      unsigned colDim = layout.isRowDim.size() - 1;
      if (buffer == input->get() && !alongLastIndex(map, colDim)) {
        m.map(arg, gather(buffer, map, index, mask, type));
        continue;
      }
      Value v = mask ? vector::MaskedLoadOp::create(b, loc, type, buffer, index, mask,
                                                    splat(b, loc, type, 1.0))
                           .getResult()
                     : vector::LoadOp::create(b, loc, type, buffer, index).getResult();
      m.map(arg, v);
    }
  };
  for (linalg::GenericOp op : pass.elementwise) {
    IRMapping m;
    loadInputs(op, m);
    SmallVector<Value> results = vectorizeBody(op, m, c);
    for (auto [v, init] : llvm::zip(results, op.getDpsInitsMutable())) {
      Value vec = broadcast(v);
      inRegisters[init.get()] = vec;
      if (privateBuffers.contains(init.get()) || recompute.contains(init.get()))
        continue; // read in registers by this pass's next ops, recomputed by later passes
      SmallVector<Value> index = gpu::indices(b, loc, op.getMatchingIndexingMap(&init), at);
      Value buffer = init.get();
      if (Value row = scratch.lookup(buffer)) {
        buffer = row;
        index = {scratchRow, c};
      }
      // A result written through a permutation is always staged in a
      // scratch row (transposedOutputs); straight stores are along the row.
      assert((buffer != init.get() ||
              alongLastIndex(op.getMatchingIndexingMap(&init), layout.isRowDim.size() - 1)) &&
             "a transposed result must be staged");
      if (mask)
        vector::MaskedStoreOp::create(b, loc, buffer, index, mask, vec);
      else
        vector::StoreOp::create(b, loc, vec, buffer, index);
    }
  }
  if (!pass.reduction)
    return nullptr;
  linalg::GenericOp op = pass.reduction;
  IRMapping m;
  loadInputs(op, m);
  vectorizeBody(op, m, c);
  Operation *combiner = gpu::combinerOf(op);
  BlockArgument out = op.getRegion().front().getArguments().back();
  Value term = combiner->getOperand(0) == out ? combiner->getOperand(1) : combiner->getOperand(0);
  return broadcast(m.lookupOrDefault(term));
}

/// Loads the lanes of columns c .. c + lanes read through `map`, which
/// reads the columns at an index other than the last (alongOtherIndex):
/// lane l is `l` times that index's stride past the first (a masked
/// gather; lanes past the row read 1, as masked loads do).
Value HostRowEmitter::gather(Value buffer, AffineMap map, ArrayRef<Value> index, Value mask,
                             VectorType type) {
  unsigned colDim = layout.isRowDim.size() - 1;
  unsigned at = *map.getResultPosition(b.getAffineDimExpr(colDim));
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  VectorType indices = vectorOf(b.getIndexType());
  Value offsets = arith::MulIOp::create(
      b, loc, vector::StepOp::create(b, loc, indices),
      vector::BroadcastOp::create(b, loc, indices, meta.getStrides()[at]));
  if (!mask)
    mask = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vectorOf(b.getI1Type()), true));
  return vector::GatherOp::create(b, loc, type, buffer, index, offsets, mask,
                                  splat(b, loc, type, 1.0));
}
