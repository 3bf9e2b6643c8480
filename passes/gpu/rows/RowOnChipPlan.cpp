//===- RowOnChipPlan.cpp - what a bufferized row kernel reads and keeps ---===//
//
// On buffers, the ops of a row kernel communicate through memrefs: an op's
// input is the result of the last op of the kernel that wrote the same
// buffer, or global memory when none did. The plan resolves that once, so
// the emitter can hand values over in registers, and decides which writes
// must still reach memory: those to buffers someone outside the kernel's
// ops reads (a function result, a later kernel, a row chain's tail). A
// buffer the kernel allocated for itself (hoisted, freed after it) is an
// intermediate: never stored. Aliasing the emitter cannot follow (a view of
// a written buffer, an input buffer the kernel overwrites, reused in place
// across a pass) makes the plan fail.
//
// The choice between the two forms is made before, on tensors
// (followsOnChip, for kf-assign-kernel-mappings' `variant`): the same
// checks over SSA values, and every write into a buffer of its own, so
// that the plan on buffers follows what the choice saw.
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/rows/RowOnChip.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

namespace kfuse::gpu::rows {

/// Whether anything other than `ops` and deallocations reads `v` (or a
/// view of it).
static bool readElsewhere(Value v, const llvm::SmallPtrSetImpl<Operation *> &ops) {
  for (Operation *user : v.getUsers()) {
    if (ops.contains(user) || isa<memref::DeallocOp>(user))
      continue;
    if (auto view = dyn_cast<ViewLikeOpInterface>(user))
      if (view.getViewSource() == v) {
        if (readElsewhere(view->getResult(0), ops))
          return true;
        continue;
      }
    return true;
  }
  return false;
}

/// Whether the values `ops` write to buffer `v` (a root) may be read after
/// them. A buffer the function did not allocate (an argument: an
/// out-parameter, a global) always may: its caller sees it.
bool observed(Value v, const llvm::SmallPtrSetImpl<Operation *> &ops) {
  if (!v.getDefiningOp<memref::AllocOp>() && !v.getDefiningOp<memref::AllocaOp>())
    return true;
  return readElsewhere(v, ops);
}

namespace {

/// The buffer `v` is a view of (itself when no view).
Value rootOf(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

/// The flat index into buffer `type` (identity layout, row-major) that
/// `map` reads, as one expression over the full-rank loops (`rowLoops`:
/// `map` is over the row loops only), the column loops set to 0. Null when
/// a result depends on a column loop at a buffer dim of size other than 1,
/// or the layout is strided or dynamic past the first dim.
AffineMap rowIndex(AffineMap map, bool rowLoops, const Layout &layout, ShapedType type) {
  MLIRContext *ctx = map.getContext();
  unsigned n = layout.isRowDim.size();
  // A map over other loops than assumed, or not one result a buffer dim
  // (a map of another op family): not followed.
  auto memref = dyn_cast<MemRefType>(type);
  if ((memref && !memref.getLayout().isIdentity()) || map.getNumSymbols() != 0 ||
      map.getNumDims() != (rowLoops ? layout.rows : n) ||
      map.getNumResults() != static_cast<unsigned>(type.getRank()))
    return AffineMap();
  SmallVector<AffineExpr> dims;
  for (unsigned i = 0; i < n; ++i)
    if (layout.isRowDim[i])
      dims.push_back(getAffineDimExpr(i, ctx));
  SmallVector<AffineExpr> replacement;
  if (rowLoops) {
    replacement = dims;
  } else {
    for (unsigned i = 0; i < n; ++i) {
      replacement.push_back(layout.isRowDim[i] ? getAffineDimExpr(i, ctx)
                                                : getAffineConstantExpr(0, ctx));
      if (layout.isRowDim[i])
        continue;
      for (auto [k, e] : llvm::enumerate(map.getResults()))
        if (e.isFunctionOfDim(i) && type.getDimSize(k) != 1)
          return AffineMap();
    }
  }
  AffineExpr flat = getAffineConstantExpr(0, ctx);
  int64_t stride = 1;
  // Signed: a 0-d buffer (a full reduction's value) has no results.
  for (int64_t k = static_cast<int64_t>(map.getNumResults()) - 1; k >= 0; --k) {
    flat = flat + map.getResult(k).replaceDims(replacement) * stride;
    if (k > 0 && ShapedType::isDynamic(type.getDimSize(k)))
      return AffineMap();
    if (k > 0)
      stride *= type.getDimSize(k);
  }
  return AffineMap::get(n, 0, simplifyAffineExpr(flat, n, 0));
}

/// Whether `x` is `root` through reshapes only (the same elements in the
/// same order).
bool reshapeOf(Value x, Value root) {
  while (x != root) {
    Operation *def = x.getDefiningOp();
    if (!isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp>(def))
      return false;
    x = def->getOperand(0);
  }
  return true;
}

/// Nullopt for an op the mapping does not emit (not a fill or a generic).
std::optional<OpKind> kindOf(linalg::LinalgOp op, const Layout &layout) {
  if (isa<linalg::FillOp>(op.getOperation()))
    return OpKind::Fill;
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic)
    return std::nullopt;
  if (isReduction(op))
    return combinerOf(generic) && generic.getNumDpsInits() == 1
               ? std::optional(OpKind::Reduction)
               : std::nullopt;
  return layout.isRowOp(generic) ? OpKind::RowValue : OpKind::Column;
}

/// Whether an op iterates over the row loops only.
bool overRowLoops(linalg::LinalgOp op, const Layout &layout) {
  return op.getNumLoops() == layout.rows && layout.rows != layout.isRowDim.size();
}

/// The widest vector (elements, up to 16 bytes) every column access of the
/// plan can use: the columns are the trailing loops, the innermost one
/// static and a multiple of it; 1 otherwise.
unsigned vectorWidth(const RowPlan &plan, const Layout &layout) {
  unsigned n = layout.isRowDim.size();
  for (unsigned i = 0; i < n; ++i)
    if (layout.isRowDim[i] != (i < layout.rows))
      return 1;
  if (layout.cols == 0 || ShapedType::isDynamic(layout.sizes.back()))
    return 1;
  // The widest element global memory sees (intermediates stay on chip).
  unsigned maxBytes = 1;
  auto see = [&](Value v) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type)
      return true;
    if (!type.getElementType().isIntOrFloat())
      return false; // index, complex: scalar accesses
    unsigned bits = type.getElementType().getIntOrFloatBitWidth();
    maxBytes = std::max(maxBytes, bits / 8);
    return bits >= 8 && bits % 8 == 0; // booleans: byte loads, no vectors
  };
  for (auto [i, op] : llvm::enumerate(plan.ops)) {
    if (plan.kinds[i] != OpKind::Column && plan.kinds[i] != OpKind::Reduction)
      continue;
    for (auto [j, input] : llvm::enumerate(op.getDpsInputOperands()))
      if (plan.sources[i][j].op < 0 && !see(input->get()))
        return 1;
    for (auto [k, init] : llvm::enumerate(op.getDpsInits()))
      if (plan.stores[i][k] && !see(init))
        return 1;
  }
  unsigned v = std::min<unsigned>(16 / maxBytes, kMaxPerThread);
  while (v > 1 && layout.sizes.back() % v)
    v /= 2;
  return v;
}

} // namespace

FailureOr<RowPlan> planRowKernel(ArrayRef<linalg::LinalgOp> constOps, const Layout &layout) {
  SmallVector<linalg::LinalgOp> ops(constOps.begin(), constOps.end());
  if (llvm::none_of(ops, [](linalg::LinalgOp op) { return isReduction(op); }))
    return failure(); // no rows to map
  RowPlan plan;
  plan.ops = ops;
  llvm::SmallPtrSet<Operation *, 16> opSet;
  llvm::DenseSet<Value> writtenRoots;
  llvm::DenseMap<Value, Value> writtenAs;
  for (linalg::LinalgOp op : ops) {
    opSet.insert(op);
    for (Value init : op.getDpsInits()) {
      // Writes through two views of one buffer (parts of it, say): the
      // last writer would not be the only one whose values must stay.
      auto [it, inserted] = writtenAs.try_emplace(rootOf(init), init);
      if (!inserted && it->second != init)
        return failure();
      writtenRoots.insert(rootOf(init));
    }
  }
  // Per written buffer (its root): the last op that wrote it, and through
  // which value.
  llvm::DenseMap<Value, std::pair<Source, Value>> writer;
  for (auto [i, op] : llvm::enumerate(ops)) {
    std::optional<OpKind> maybeKind = kindOf(op, layout);
    if (!maybeKind)
      return failure();
    OpKind kind = *maybeKind;
    plan.kinds.push_back(kind);
    plan.sources.emplace_back();
    if (kind != OpKind::Fill) {
      Block &body = op->getRegion(0).front();
      // An elementwise op reading its own outputs: not a row kernel op here.
      if (kind != OpKind::Reduction)
        for (OpOperand &init : op.getDpsInitsMutable())
          if (!body.getArgument(init.getOperandNumber()).use_empty())
            return failure();
      for (OpOperand *input : op.getDpsInputOperands()) {
        Value x = input->get(), root = rootOf(x);
        Source source;
        auto w = writer.find(root);
        if (w == writer.end() && writtenRoots.contains(root))
          return failure(); // read before the kernel overwrites it
        if (w != writer.end()) {
          source = w->second.first;
          Value written = w->second.second;
          OpKind from = plan.kinds[source.op];
          linalg::LinalgOp wop = ops[source.op];
          AffineMap readMap = op.getMatchingIndexingMap(input);
          AffineMap writeMap = wop.getMatchingIndexingMap(wop.getDpsInitOperand(source.result));
          if (from == OpKind::Fill)
            return failure();
          if (from == OpKind::Column) {
            if (kind == OpKind::RowValue || written != x || readMap != writeMap)
              return failure();
          } else {
            // A row value, maybe through a reshape (keepdim): the same
            // element of the row's buffer.
            if (!reshapeOf(x, root) || !reshapeOf(written, root))
              return failure();
            AffineMap r = rowIndex(readMap, overRowLoops(op, layout), layout,
                                   cast<MemRefType>(x.getType()));
            AffineMap wr = rowIndex(writeMap, overRowLoops(wop, layout), layout,
                                    cast<MemRefType>(written.getType()));
            if (!r || !wr || r != wr)
              return failure(); // a row value read at another row
          }
        }
        plan.sources.back().push_back(source);
      }
    }
    for (auto [k, init] : llvm::enumerate(op.getDpsInits()))
      writer[rootOf(init)] = {Source{static_cast<int>(i), static_cast<unsigned>(k)}, init};
  }
  for (auto [i, op] : llvm::enumerate(ops)) {
    plan.stores.emplace_back();
    for (auto [k, init] : llvm::enumerate(op.getDpsInits())) {
      Source last = writer.lookup(rootOf(init)).first;
      bool isLast = last.op == static_cast<int>(i) && last.result == k;
      plan.stores.back().push_back(plan.kinds[i] != OpKind::Fill && isLast &&
                                   observed(rootOf(init), opSet));
    }
  }
  plan.vector = vectorWidth(plan, layout);
  plan.staticCols = 1;
  for (auto [i, s] : llvm::enumerate(layout.sizes))
    if (!layout.isRowDim[i])
      plan.staticCols = ShapedType::isDynamic(s) || ShapedType::isDynamic(plan.staticCols)
                            ? ShapedType::kDynamic
                            : plan.staticCols * s;
  return plan;
}

namespace {

/// `v` through tensor reshapes to the value they reshape.
Value reshapedFrom(Value v) {
  while (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(v.getDefiningOp()))
    v = v.getDefiningOp()->getOperand(0);
  return v;
}

/// Whether `v`, made inside `kernel` by an op other than `ops` (a slice, a
/// pad), is made from a value of `ops`: a view of a buffer the kernel
/// writes, which the on-chip form does not index.
bool madeFromKernelValues(Value v, Operation *kernel,
                          const llvm::DenseMap<Operation *, unsigned> &index) {
  Operation *def = v.getDefiningOp();
  if (!def || !kernel->isProperAncestor(def))
    return false; // global memory: the kernel's inputs
  if (index.contains(def))
    return true;
  return llvm::any_of(def->getOperands(),
                      [&](Value x) { return madeFromKernelValues(x, kernel, index); });
}

} // namespace

bool followsOnChip(ArrayRef<linalg::LinalgOp> constOps, const Layout &layout) {
  SmallVector<linalg::LinalgOp> ops(constOps.begin(), constOps.end());
  if (ops.empty() || llvm::none_of(ops, [](linalg::LinalgOp op) { return isReduction(op); }))
    return false;
  Operation *kernel = ops.front()->getParentOp();
  llvm::DenseMap<Operation *, unsigned> index;
  SmallVector<OpKind> kinds;
  for (auto [i, op] : llvm::enumerate(ops)) {
    std::optional<OpKind> kind = kindOf(op, layout);
    if (!kind)
      return false;
    // Each op writes a buffer of its own (a tensor.empty of the kernel),
    // a reduction the fill just before it: bufferization then gives every
    // value its own buffer, with no view between and no input overwritten
    // (the aliasing planRowKernel refuses).
    for (OpOperand &init : op.getDpsInitsMutable()) {
      Value v = init.get();
      auto fill = v.getDefiningOp<linalg::FillOp>();
      bool ownFill = fill && *kind == OpKind::Reduction && index.contains(fill) && v.hasOneUse();
      if (!ownFill && !v.getDefiningOp<tensor::EmptyOp>())
        return false;
    }
    index[op] = i;
    kinds.push_back(*kind);
    if (*kind == OpKind::Fill)
      continue;
    Block &body = op->getRegion(0).front();
    if (*kind != OpKind::Reduction)
      for (OpOperand &init : op.getDpsInitsMutable())
        if (!body.getArgument(init.getOperandNumber()).use_empty())
          return false;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value x = input->get(), written = reshapedFrom(x);
      auto writer = written.getDefiningOp<linalg::LinalgOp>();
      if (!writer || !index.contains(writer)) {
        if (madeFromKernelValues(written, kernel, index))
          return false;
        continue; // global memory
      }
      unsigned w = index.lookup(writer);
      unsigned result = cast<OpResult>(written).getResultNumber();
      AffineMap readMap = op.getMatchingIndexingMap(input);
      AffineMap writeMap = writer.getMatchingIndexingMap(writer.getDpsInitOperand(result));
      if (kinds[w] == OpKind::Fill)
        return false;
      if (kinds[w] == OpKind::Column) {
        if (*kind == OpKind::RowValue || written != x || readMap != writeMap)
          return false;
        continue;
      }
      AffineMap r = rowIndex(readMap, overRowLoops(op, layout), layout,
                             cast<ShapedType>(x.getType()));
      AffineMap wr = rowIndex(writeMap, overRowLoops(writer, layout), layout,
                              cast<ShapedType>(written.getType()));
      if (!r || !wr || r != wr)
        return false; // a row value read at another row
    }
  }
  return true;
}

std::optional<std::pair<int64_t, int64_t>> registerBucket(int64_t cols, unsigned vector) {
  if (cols <= 0)
    return std::nullopt;
  int64_t threads = 32;
  while (threads < kMaxThreads && threads * kMaxPerThread < cols)
    threads *= 2;
  int64_t vectors = llvm::divideCeil(cols, vector);
  int64_t perThread = llvm::divideCeil(vectors, threads) * vector;
  if (perThread > kMaxPerThread)
    return std::nullopt;
  return std::pair{threads, perThread};
}

} // namespace kfuse::gpu::rows
