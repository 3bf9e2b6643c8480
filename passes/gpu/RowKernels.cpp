//===- RowKernels.cpp - reduction kernels, one block per row --------------===//
//
// Upstream can tile a linalg reduction onto blocks and threads, but it maps
// one op at a time: the kernels kfuse forms (softmax: max, exp, sum, div
// over the same rows) must stay one launch, each row's reductions visible
// to the ops after them. So this mapping is written directly: a block per
// row, each op in program order with a barrier after it; intermediate
// buffers keep their global memory (a row stays in L1/L2 between the ops).
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/RowKernels.h"

#include "passes/gpu/MappingUtils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace kfuse::gpu {

namespace {

bool isReduction(linalg::LinalgOp op) { return op.getNumReductionLoops() > 0; }

/// The value a fill writes, or null.
Value filledBuffer(linalg::FillOp fill) {
  return fill.hasPureTensorSemantics() ? fill.getResult(0) : fill.getDpsInits()[0];
}

/// The combining op of a reduction's body (`out = combine(out, x)`), or
/// null when the body is not of that form.
Operation *combiner(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (yield.getNumOperands() != 1)
    return nullptr;
  Operation *def = yield.getOperand(0).getDefiningOp();
  BlockArgument out = body.getArguments().back();
  if (!def || def->getNumOperands() != 2 || def->getNumResults() != 1 ||
      !out.hasOneUse() || (def->getOperand(0) != out && def->getOperand(1) != out) ||
      !isa<arith::AddFOp, arith::AddIOp, arith::MaximumFOp, arith::MinimumFOp,
           arith::MaxSIOp, arith::MinSIOp, arith::MulFOp, arith::MulIOp,
           arith::MaxNumFOp, arith::MinNumFOp, arith::OrIOp, arith::AndIOp>(def))
    return nullptr;
  return def;
}

/// The initial value of a reduction: the constant of the fill, in the
/// kernel, that writes its init.
arith::ConstantOp initialValue(linalg::GenericOp op, ArrayRef<linalg::LinalgOp> ops) {
  Value init = op.getDpsInits()[0];
  for (linalg::LinalgOp other : ops)
    if (auto fill = dyn_cast<linalg::FillOp>(other.getOperation()))
      if (filledBuffer(fill) == init)
        return fill.getInputs()[0].getDefiningOp<arith::ConstantOp>();
  return nullptr;
}

/// Whether `value` is the identity of `combine` (combining it changes
/// nothing), so that every thread may start from it.
bool isIdentity(Operation *combine, arith::ConstantOp value) {
  Attribute a = value.getValue();
  if (auto f = dyn_cast<FloatAttr>(a)) {
    APFloat v = f.getValue();
    if (isa<arith::AddFOp>(combine))
      return v.isZero();
    if (isa<arith::MulFOp>(combine))
      return v.isExactlyValue(1.0);
    if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combine))
      return v.isInfinity() && v.isNegative();
    if (isa<arith::MinimumFOp, arith::MinNumFOp>(combine))
      return v.isInfinity() && !v.isNegative();
  }
  if (auto i = dyn_cast<IntegerAttr>(a)) {
    APInt v = i.getValue();
    if (isa<arith::AddIOp>(combine))
      return v.isZero();
    if (isa<arith::MulIOp>(combine))
      return v.isOne();
    if (isa<arith::MaxSIOp>(combine))
      return v.isMinSignedValue();
    if (isa<arith::MinSIOp>(combine))
      return v.isMaxSignedValue();
    if (isa<arith::OrIOp>(combine)) // any (bool max)
      return v.isZero();
    if (isa<arith::AndIOp>(combine)) // all (bool min)
      return v.isAllOnes();
  }
  return false;
}

/// Whether `map` reads only row loops (a value of the row, whatever the
/// column).
bool readsRowOnly(AffineMap map, ArrayRef<bool> isRowDim) {
  for (AffineExpr e : map.getResults()) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d || !isRowDim[d.getPosition()])
      return false;
  }
  return true;
}

/// The layout of a row kernel: which loops of a full-rank op are rows.
struct Layout {
  SmallVector<bool> isRowDim;
  SmallVector<int64_t> sizes; // static loop sizes of the first reduction
  unsigned rows = 0, cols = 0;

  /// Whether an elementwise op computes one value a row: it loops over the
  /// rows only, or over rows and unit columns (a keepdim value).
  bool isRowOp(linalg::GenericOp op) const {
    if (op.getNumLoops() == rows)
      return true;
    if (op.getNumLoops() != isRowDim.size())
      return false;
    SmallVector<int64_t> loopSizes = op.getStaticLoopRanges();
    for (auto [i, s] : llvm::enumerate(loopSizes)) {
      if (!isRowDim[i] && s != 1)
        return false;
      // The same rows (a reshape can make [27, 1, 1] of [3, 3, 3]).
      if (isRowDim[i] && s != sizes[i] && !ShapedType::isDynamic(s) &&
          !ShapedType::isDynamic(sizes[i]))
        return false;
    }
    return llvm::any_of(llvm::enumerate(sizes), [&](auto e) {
      return !isRowDim[e.index()] && e.value() != 1;
    });
  }
};

bool analyze(ArrayRef<linalg::LinalgOp> ops, bool shuffleTypes, std::string &why,
             Layout &layout) {
  linalg::LinalgOp first;
  for (linalg::LinalgOp op : ops)
    if (isReduction(op)) {
      first = op;
      break;
    }
  if (!first)
    return why = "it has no reduction", false;
  for (utils::IteratorType t : first.getIteratorTypesArray())
    layout.isRowDim.push_back(t == utils::IteratorType::parallel);
  layout.sizes = first.getStaticLoopRanges();
  layout.rows = first.getNumParallelLoops();
  layout.cols = first.getNumReductionLoops();
  SmallVector<int64_t> rowSizes;
  for (auto [i, s] : llvm::enumerate(layout.sizes))
    if (layout.isRowDim[i])
      rowSizes.push_back(s);
  auto sameSizes = [](ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
    for (auto [x, y] : llvm::zip(a, b))
      if (x != y && !ShapedType::isDynamic(x) && !ShapedType::isDynamic(y))
        return false;
    return a.size() == b.size();
  };
  // Values the kernel's own ops write: read back only at the same element
  // or as a row value.
  llvm::DenseSet<Value> written;
  for (linalg::LinalgOp op : ops) {
    if (auto fill = dyn_cast<linalg::FillOp>(op.getOperation())) {
      bool initOfReduction = llvm::any_of(ops, [&](linalg::LinalgOp r) {
        return isReduction(r) && r.getDpsInits()[0] == filledBuffer(fill);
      });
      if (!initOfReduction)
        return why = "a fill does not start a reduction", false;
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic)
      return why = "it holds a " + op->getName().getStringRef().str(), false;
    unsigned loops = generic.getNumLoops();
    bool rowOp = !isReduction(op) && layout.isRowOp(generic);
    bool fullRank = loops == layout.isRowDim.size() && !rowOp;
    if (isReduction(op)) {
      if (generic.getIteratorTypesArray() != first.getIteratorTypesArray() ||
          !sameSizes(generic.getStaticLoopRanges(), layout.sizes))
        return why = "its reductions are over different rows", false;
      if (generic.getNumDpsInits() != 1)
        return why = "a reduction has several results", false;
      Operation *combine = combiner(generic);
      arith::ConstantOp init = initialValue(generic, ops);
      if (!combine || !init || !isIdentity(combine, init))
        return why = "a reduction is not a combination from its identity", false;
      Type t = combine->getResult(0).getType();
      // f16 and bf16 reductions accumulate in their own type (as on the
      // CPU): combined in a tree instead of in order they would differ in
      // their few bits. They stay on the host until they accumulate in f32.
      if (shuffleTypes && isa<FloatType>(t) && t.getIntOrFloatBitWidth() < 32)
        return why = "a reduction accumulating in f16 or bf16", false;
      if (!readsRowOnly(generic.getMatchingIndexingMap(generic.getDpsInitOperand(0)),
                        layout.isRowDim))
        return why = "a reduction's result is not indexed by its rows", false;
    } else if (fullRank) {
      if (!sameSizes(generic.getStaticLoopRanges(), layout.sizes))
        return why = "its ops iterate over different shapes", false;
    } else if (!rowOp) {
      return why = "an op is neither over the rows nor over rows and columns", false;
    } else if (loops == layout.rows &&
               !sameSizes(generic.getStaticLoopRanges(), rowSizes)) {
      return why = "its ops iterate over different rows", false;
    }
    for (OpOperand &init : generic.getDpsInitsMutable())
      if (!isReduction(op) && !generic.getMatchingIndexingMap(&init).isIdentity())
        return why = "a result is not written in iteration order", false;
    for (OpOperand *input : generic.getDpsInputOperands()) {
      if (!written.count(input->get()))
        continue;
      AffineMap map = generic.getMatchingIndexingMap(input);
      if (!map.isIdentity() && !(fullRank && readsRowOnly(map, layout.isRowDim)))
        return why = "an op reads another's result at another row", false;
    }
    for (Value v : generic.getDpsInits())
      written.insert(v);
    for (Value v : generic->getResults())
      written.insert(v);
  }
  return true;
}

/// Emits one op of the kernel for block `row` (see mapRowKernel).
class RowEmitter {
public:
  RowEmitter(OpBuilder &b, Location loc, const Layout &layout, bool host)
      : b(b), loc(loc), layout(layout), host(host) {}

  Value tid, blockDim, rowIndex;
  Value colStart, colStep; // this thread's first column and the stride
  SmallVector<Value> rowSizes, colSizes;
  Value cols;

  /// The full loop indices of (row, col).
  SmallVector<Value> ivs(ArrayRef<Value> rowIvs, ArrayRef<Value> colIvs) {
    SmallVector<Value> out;
    unsigned r = 0, c = 0;
    for (bool isRow : layout.isRowDim)
      out.push_back(isRow ? rowIvs[r++] : colIvs[c++]);
    return out;
  }

  /// Loads the inputs of `op` at `ivs` into `mapping`.
  void loadInputs(linalg::GenericOp op, ArrayRef<Value> loopIvs, IRMapping &mapping) {
    Block &body = op.getRegion().front();
    for (OpOperand *input : op.getDpsInputOperands()) {
      BlockArgument arg = body.getArgument(input->getOperandNumber());
      if (arg.use_empty())
        continue;
      mapping.map(arg, memref::LoadOp::create(
                           b, loc, input->get(),
                           indices(b, loc, op.getMatchingIndexingMap(input), loopIvs)));
    }
  }

  /// Computes and stores the element at `loopIvs` of an elementwise op.
  void elementwise(linalg::GenericOp op, ArrayRef<Value> loopIvs) {
    IRMapping mapping;
    loadInputs(op, loopIvs, mapping);
    SmallVector<Value> results = cloneBody(b, op, mapping, loopIvs);
    for (auto [v, init] : llvm::zip(results, op.getDpsInitsMutable()))
      memref::StoreOp::create(b, loc, v, init.get(),
                              indices(b, loc, op.getMatchingIndexingMap(&init), loopIvs));
  }

  /// A loop over this thread's columns: c = tid, tid + blockDim, ...
  template <typename Body>
  scf::ForOp columns(ValueRange inits, Body body) {
    return scf::ForOp::create(
        b, loc, colStart, cols, colStep, inits,
        [&](OpBuilder &nested, Location, Value c, ValueRange acc) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
          SmallVector<Value> colIvs = delinearize(b, loc, c, colSizes);
          SmallVector<Value> yielded = body(colIvs, acc);
          scf::YieldOp::create(b, loc, yielded);
        });
  }

  Value combine(Operation *combiner, Value a, Value c) {
    IRMapping m;
    m.map(combiner->getOperand(0), a);
    m.map(combiner->getOperand(1), c);
    return b.clone(*combiner, m)->getResult(0);
  }

  /// Combines `v` across the 32 lanes of each warp (butterfly shuffles).
  Value warpReduce(Operation *combiner, Value v) {
    Value width = arith::ConstantIntOp::create(b, loc, 32, 32);
    for (int offset = 16; offset >= 1; offset /= 2) {
      Value off = arith::ConstantIntOp::create(b, loc, offset, 32);
      v = combine(combiner, v, shuffleXor(v, off, width));
    }
    return v;
  }

  /// The value of lane `lane xor offset`. Warp shuffles move 32 bits:
  /// 16-bit floats and booleans travel widened (exactly), 64-bit values
  /// as two halves.
  Value shuffleXor(Value v, Value offset, Value width) {
    auto shuffle = [&](Value x) {
      return ::mlir::gpu::ShuffleOp::create(b, loc, x, offset, width,
                                            ::mlir::gpu::ShuffleMode::XOR)
          .getShuffleResult();
    };
    Type t = v.getType();
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    if (t.getIntOrFloatBitWidth() == 32)
      return shuffle(v);
    if (isa<FloatType>(t) && t.getIntOrFloatBitWidth() < 32)
      return arith::TruncFOp::create(
          b, loc, t, shuffle(arith::ExtFOp::create(b, loc, b.getF32Type(), v)));
    if (t.isInteger() && t.getIntOrFloatBitWidth() < 32)
      return arith::TruncIOp::create(b, loc, t,
                                     shuffle(arith::ExtUIOp::create(b, loc, i32, v)));
    // 64 bits: the low and the high half.
    Value bits = t.isInteger() ? v : arith::BitcastOp::create(b, loc, i64, v).getResult();
    Value c32 = arith::ConstantIntOp::create(b, loc, i64, 32);
    Value lo = shuffle(arith::TruncIOp::create(b, loc, i32, bits));
    Value hi = shuffle(arith::TruncIOp::create(b, loc, i32,
                                               arith::ShRUIOp::create(b, loc, bits, c32)));
    Value joined = arith::OrIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, i64, lo),
        arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, i64, hi), c32));
    return t.isInteger() ? joined : arith::BitcastOp::create(b, loc, t, joined).getResult();
  }

  /// This thread's partial of a reduction over its columns.
  Value partialOf(linalg::GenericOp op, Value identity) {
    SmallVector<Value> rowIvs = delinearize(b, loc, rowIndex, rowSizes);
    BlockArgument out = op.getRegion().front().getArguments().back();
    scf::ForOp loop = columns(identity, [&](ArrayRef<Value> colIvs, ValueRange acc) {
      SmallVector<Value> loopIvs = ivs(rowIvs, colIvs);
      IRMapping mapping;
      loadInputs(op, loopIvs, mapping);
      mapping.map(out, acc[0]);
      return cloneBody(b, op, mapping, loopIvs);
    });
    return loop.getResult(0);
  }

  /// Where a reduction's value for this block's row goes.
  SmallVector<Value> resultIndex(linalg::GenericOp op) {
    SmallVector<Value> rowIvs = delinearize(b, loc, rowIndex, rowSizes);
    SmallVector<Value> zeros(layout.cols, arith::ConstantIndexOp::create(b, loc, 0));
    return indices(b, loc, op.getMatchingIndexingMap(op.getDpsInitOperand(0)),
                   ivs(rowIvs, zeros));
  }

  /// Combines the threads' partials of a block (warp shuffles, then the
  /// warps' values through shared memory in the first warp); thread 0
  /// stores the total at dest[index].
  void blockCombine(Operation *combiner, Value partial, Value identity, Value shared,
                    Value dest, ValueRange index) {
    Value c32 = arith::ConstantIndexOp::create(b, loc, 32);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value warpValue = warpReduce(combiner, partial);
    Value lane = arith::RemUIOp::create(b, loc, tid, c32);
    Value warp = arith::DivUIOp::create(b, loc, tid, c32);
    auto isLaneZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, zero);
    auto write = scf::IfOp::create(b, loc, isLaneZero, false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&write.getThenRegion().front());
      memref::StoreOp::create(b, loc, warpValue, shared, ValueRange{warp});
    }
    ::mlir::gpu::BarrierOp::create(b, loc);
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
    Value total = warpReduce(combiner, v);
    auto isThreadZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero);
    auto store = scf::IfOp::create(b, loc, isThreadZero, false);
    b.setInsertionPointToStart(&store.getThenRegion().front());
    memref::StoreOp::create(b, loc, total, dest, index);
  }

  void reduction(linalg::GenericOp op, Value identity, Value shared) {
    Value partial = partialOf(op, identity);
    Value dest = op.getDpsInitOperand(0)->get();
    SmallVector<Value> index = resultIndex(op);
    if (host) { // one thread: its partial is the row's value
      memref::StoreOp::create(b, loc, partial, dest, index);
      return;
    }
    blockCombine(kfuse::gpu::combinerOf(op), partial, identity, shared, dest, index);
  }

  void overColumns(linalg::GenericOp op) {
    SmallVector<Value> rowIvs = delinearize(b, loc, rowIndex, rowSizes);
    columns(ValueRange(), [&](ArrayRef<Value> colIvs, ValueRange) {
      elementwise(op, ivs(rowIvs, colIvs));
      return SmallVector<Value>();
    });
  }

  void overRow(linalg::GenericOp op) {
    SmallVector<Value> rowIvs = delinearize(b, loc, rowIndex, rowSizes);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    if (op.getNumLoops() != layout.rows) { // rows and unit columns
      SmallVector<Value> zeros(layout.cols, zero);
      rowIvs = ivs(rowIvs, zeros);
    }
    auto first = scf::IfOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&first.getThenRegion().front());
    elementwise(op, rowIvs);
  }

private:
  OpBuilder &b;
  Location loc;
  const Layout &layout;
  bool host;
};

} // namespace

Operation *combinerOf(linalg::GenericOp op) { return combiner(op); }

bool isRowKernel(ArrayRef<linalg::LinalgOp> ops, bool shuffleTypes, std::string &why) {
  Layout layout;
  return analyze(ops, shuffleTypes, why, layout);
}

namespace {
/// The single reduction of a full reduction kernel whose other ops are
/// elementwise over its columns before it and over its (one) row after it:
/// such a kernel takes two launches. Null otherwise.
linalg::GenericOp twoStageReduction(ArrayRef<linalg::LinalgOp> ops, const Layout &layout) {
  if (layout.rows != 0)
    return nullptr;
  linalg::GenericOp reduction;
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic)
      continue;
    if (isReduction(op)) {
      if (reduction)
        return nullptr;
      reduction = generic;
    } else if (reduction && !layout.isRowOp(generic)) {
      return nullptr;
    }
  }
  return reduction;
}

/// A full reduction in two launches: `<name>_partials` (blocks striding
/// over the whole tensor, each storing its combined partial) and `<name>`
/// (one block combining the partials, then the ops over the result).
void mapTwoStage(ArrayRef<linalg::LinalgOp> ops, linalg::GenericOp reduction,
                 const Layout &layout, unsigned blockSize) {
  linalg::LinalgOp last = ops.back();
  StringRef name = last->getAttrOfType<StringAttr>("kf.kernel").getValue();
  OpBuilder b(last);
  Location loc = last.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> colSizes;
  for (Range r : cast<linalg::LinalgOp>(reduction.getOperation()).createLoopRanges(b, loc))
    colSizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
  Value cols = product(b, loc, colSizes);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value threads = arith::ConstantIndexOp::create(b, loc, blockSize);
  // Blocks: four elements a thread, at most 1024 partials.
  Value perBlock = arith::ConstantIndexOp::create(b, loc, 4 * blockSize);
  Value blocks = arith::MinUIOp::create(
      b, loc,
      arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, cols, perBlock), one),
      arith::ConstantIndexOp::create(b, loc, 1024));
  Operation *combiner = combinerOf(reduction);
  Type type = combiner->getResult(0).getType();
  Value partials = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, type), ValueRange{blocks});
  auto workgroup = ::mlir::gpu::AddressSpaceAttr::get(ctx, ::mlir::gpu::AddressSpace::Workgroup);
  Type shared = MemRefType::get({32}, type, MemRefLayoutAttrInterface(), workgroup);
  auto identityOf = [&](OpBuilder &at) {
    return arith::ConstantOp::create(at, loc, initialValue(reduction, ops).getValue())
        .getResult();
  };
  auto launch = [&](Value grid, StringRef kernel) {
    auto l = ::mlir::gpu::LaunchOp::create(
        b, loc, grid, one, one, threads, one, one, nullptr, nullptr, {}, TypeRange{shared}, {},
        nullptr, nullptr, nullptr, FlatSymbolRefAttr::get(ctx, "kfuse_kernels"),
        FlatSymbolRefAttr::get(ctx, kernel));
    return l;
  };

  // Stage 1: the ops up to the reduction, over this block's columns.
  auto first = launch(blocks, (name + "_partials").str());
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&first.getBody().front());
    RowEmitter emit(b, loc, layout, /*host=*/false);
    emit.tid = first.getThreadIds().x;
    emit.blockDim = first.getBlockSize().x;
    emit.rowIndex = first.getBlockIds().x; // no rows: unused
    emit.colSizes = colSizes;
    emit.cols = cols;
    emit.colStart = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, first.getBlockIds().x, emit.blockDim), emit.tid);
    emit.colStep = arith::MulIOp::create(b, loc, first.getGridSize().x, emit.blockDim);
    for (linalg::LinalgOp op : ops) {
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic)
        continue;
      if (generic == reduction) {
        Value identity = identityOf(b);
        emit.blockCombine(combiner, emit.partialOf(generic, identity), identity,
                          first.getWorkgroupAttributions()[0], partials,
                          ValueRange{first.getBlockIds().x});
        break;
      }
      emit.overColumns(generic); // the same thread reads it back: no barrier
    }
    ::mlir::gpu::TerminatorOp::create(b, loc);
  }
  // Stage 2: the partials, then the ops over the result.
  auto second = launch(one, name);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&second.getBody().front());
    RowEmitter emit(b, loc, layout, /*host=*/false);
    emit.tid = second.getThreadIds().x;
    emit.blockDim = second.getBlockSize().x;
    emit.rowIndex = second.getBlockIds().x;
    emit.colSizes = {blocks};
    emit.cols = blocks;
    emit.colStart = emit.tid;
    emit.colStep = emit.blockDim;
    Value identity = identityOf(b);
    scf::ForOp loop = emit.columns(identity, [&](ArrayRef<Value> i, ValueRange acc) {
      Value p = memref::LoadOp::create(b, loc, partials, ValueRange{i[0]});
      return SmallVector<Value>{emit.combine(combiner, acc[0], p)};
    });
    emit.blockCombine(combiner, loop.getResult(0), identity,
                      second.getWorkgroupAttributions()[0],
                      reduction.getDpsInitOperand(0)->get(), emit.resultIndex(reduction));
    ::mlir::gpu::BarrierOp::create(b, loc);
    bool after = false;
    for (linalg::LinalgOp op : ops) {
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (generic && after)
        emit.overRow(generic);
      after |= generic == reduction;
    }
    ::mlir::gpu::TerminatorOp::create(b, loc);
  }
  memref::DeallocOp::create(b, loc, partials);
  for (linalg::LinalgOp op : llvm::reverse(ops))
    op->erase();
}
} // namespace

LogicalResult mapRowKernel(ArrayRef<linalg::LinalgOp> ops, unsigned blockSize, bool host) {
  Layout layout;
  std::string why;
  linalg::LinalgOp last = ops.back();
  auto name = last->getAttrOfType<StringAttr>("kf.kernel");
  if (!analyze(ops, /*shuffleTypes=*/!host, why, layout))
    return last->emitError("kf-map-kernels-to-gpu: kernel '")
           << name.getValue() << "' is not a row kernel: " << why;
  if (!host)
    if (linalg::GenericOp reduction = twoStageReduction(ops, layout)) {
      mapTwoStage(ops, reduction, layout, blockSize);
      return success();
    }
  linalg::LinalgOp first;
  for (linalg::LinalgOp op : ops)
    if (isReduction(op)) {
      first = op;
      break;
    }
  OpBuilder b(last);
  Location loc = last.getLoc();
  MLIRContext *ctx = b.getContext();

  // Rows, columns and the launch: a block per row; a warp for short rows
  // (threads = the columns rounded up to 32, at most block-size).
  SmallVector<Value> rowSizes, colSizes;
  for (auto [i, r] : llvm::enumerate(first.createLoopRanges(b, loc))) {
    Value size = getValueOrCreateConstantIndexOp(b, loc, r.size);
    (layout.isRowDim[i] ? rowSizes : colSizes).push_back(size);
  }
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value rows = product(b, loc, rowSizes);
  Value cols = product(b, loc, colSizes);
  Value grid = arith::MaxUIOp::create(b, loc, rows, one);
  Value threads = one;
  if (!host) {
    Value c32 = arith::ConstantIndexOp::create(b, loc, 32);
    Value warps = arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, cols, c32), one);
    threads = arith::MinUIOp::create(b, loc, arith::MulIOp::create(b, loc, warps, c32),
                                     arith::ConstantIndexOp::create(b, loc, blockSize));
  }
  // Shared memory: 32 values (one a warp) for each reduction.
  SmallVector<Type> shared;
  auto workgroup = ::mlir::gpu::AddressSpaceAttr::get(ctx, ::mlir::gpu::AddressSpace::Workgroup);
  if (!host)
    for (linalg::LinalgOp op : ops)
      if (isReduction(op))
        shared.push_back(MemRefType::get(
            {32}, combinerOf(cast<linalg::GenericOp>(op.getOperation()))->getResult(0).getType(),
            MemRefLayoutAttrInterface(), workgroup));
  auto launch = ::mlir::gpu::LaunchOp::create(
      b, loc, grid, one, one, threads, one, one, nullptr, nullptr, {}, shared, {}, nullptr,
      nullptr, nullptr, FlatSymbolRefAttr::get(ctx, "kfuse_kernels"),
      FlatSymbolRefAttr::get(name));
  b.setInsertionPointToStart(&launch.getBody().front());
  // With no rows (a zero-sized tensor) the one block does nothing; the
  // condition is the same for all threads of a block, so the barriers
  // inside stay uniform.
  auto hasRow = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, launch.getBlockIds().x, rows),
      false);
  b.setInsertionPointToStart(&hasRow.getThenRegion().front());
  RowEmitter emit(b, loc, layout, host);
  emit.tid = launch.getThreadIds().x;
  emit.blockDim = launch.getBlockSize().x;
  emit.colStart = emit.tid;
  emit.colStep = emit.blockDim;
  emit.rowIndex = launch.getBlockIds().x;
  emit.rowSizes = rowSizes;
  emit.colSizes = colSizes;
  emit.cols = cols;
  unsigned nextShared = 0;
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic)
      continue; // fills: every thread starts its reduction from the value
    if (isReduction(op)) {
      arith::ConstantOp init = initialValue(generic, ops);
      Value identity = arith::ConstantOp::create(b, loc, init.getValue());
      emit.reduction(generic, identity,
                     host ? Value() : Value(launch.getWorkgroupAttributions()[nextShared++]));
    } else if (layout.isRowOp(generic)) {
      emit.overRow(generic);
    } else {
      emit.overColumns(generic);
    }
    if (!host) // what one thread wrote, the next op's threads may read
      ::mlir::gpu::BarrierOp::create(b, loc);
  }
  b.setInsertionPointToEnd(&launch.getBody().front());
  ::mlir::gpu::TerminatorOp::create(b, loc);
  for (linalg::LinalgOp op : llvm::reverse(ops))
    op->erase();
  return success();
}

} // namespace kfuse::gpu
