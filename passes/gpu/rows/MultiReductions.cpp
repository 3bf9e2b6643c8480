//===- MultiReductions.cpp - reductions over rows and columns, one pass ---===//
//
// The `multi_reduction` mapping: reductions of one tensor over its rows
// (trailing dims: `x.sum(1)`) and over its columns (leading dims:
// `x.max(0)`), with a prologue computing the tensor and elementwise ops
// over either side's results, in one launch reading the tensor's inputs
// once (tinygrad's multireduce). A block owns a band of consecutive rows:
// its threads stride over each row's columns, folding the row's
// reductions (combined across the block at the row's end) and each
// column's value into that column's partial for the band: in the thread's
// registers where the columns are static and a thread owns at most 4 (the
// GPU), else in global memory (bands x columns; only the owning thread
// touches it, so no barrier guards it). The last block to finish
// (launch/LastBlockTicket.h) combines each column's partials in band
// order (the result does not depend on which block is last), then runs the
// ops over the columns' results. Written once for both targets
// (LaunchTarget): on the host a block is one thread.
//
//===----------------------------------------------------------------------===//
#include "passes/gpu/rows/RowEmitter.h"

namespace kfuse::gpu {

using namespace rows;

namespace {

/// Rows a band holds at least, and the most bands (partials) a launch has.
constexpr int64_t kBandRows = 32, kMaxBands = 1024;
/// The most columns a thread keeps its band's partials of in registers.
constexpr int64_t kRegisterColumns = 4;

/// Emits, inside the launch, what the blocks of a multi-reduction run.
class MultiReductionEmitter {
public:
  MultiReductionEmitter(OpBuilder &b, Location loc, const MultiReduction &m,
                        ArrayRef<linalg::LinalgOp> ops, const launch::LaunchTarget &target)
      : b(b), loc(loc), m(m), ops(ops), target(target), emit(b, loc, layout, target) {}

  SmallVector<Value> rowSizes, colSizes;
  Value rows, cols, bands, bandRows;
  SmallVector<Value> partials;          // per column reduction: bands x columns
  SmallVector<ValueRange> combineScratch; // per row reduction
  ValueRange lastScratch;
  Value tid, blockDim, bid;
  /// Columns a thread owns when its partials stay in registers (static
  /// columns, at most kRegisterColumns a thread), else 0: in memory.
  unsigned registerColumns = 0;
  /// Per prologue op: whether its values are read after the kernel.
  SmallVector<bool> storePrologue;

  /// The whole launch body.
  void run(FlatSymbolRefAttr ticket) {
    emit.tid = tid;
    emit.blockDim = blockDim;
    Value zero = index(0);
    Value begin = arith::MinUIOp::create(b, loc, arith::MulIOp::create(b, loc, bid, bandRows), rows);
    Value end = arith::MinUIOp::create(b, loc, arith::AddIOp::create(b, loc, begin, bandRows), rows);
    if (registerColumns) {
      // Each column's partial of this band in registers, from the identity,
      // stored once after the band.
      SmallVector<linalg::GenericOp> overCols;
      SmallVector<Value> inits;
      for (MultiReduction::Member r : m.reductions)
        if (!r.overRows) {
          overCols.push_back(r.op);
          for (unsigned k = 0; k < registerColumns; ++k)
            inits.push_back(identity(r.op));
        }
      auto band = scf::ForOp::create(
          b, loc, begin, end, index(1), inits,
          [&](OpBuilder &nested, Location, Value r, ValueRange acc) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
            scf::YieldOp::create(b, loc, rowInRegisters(r, acc));
          });
      for (unsigned k = 0; k < registerColumns; ++k) {
        Value c = arith::AddIOp::create(b, loc, tid,
                                        arith::MulIOp::create(b, loc, blockDim, index(k)));
        auto inside = scf::IfOp::create(
            b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, c, cols), false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&inside.getThenRegion().front());
        for (unsigned j = 0; j < overCols.size(); ++j)
          memref::StoreOp::create(b, loc, band.getResult(j * registerColumns + k), partials[j],
                                  ValueRange{bid, c});
      }
    } else {
      // Each column's partial of this band starts from the identity.
      forColumns(zero, [&](Value c) {
        unsigned j = 0;
        for (MultiReduction::Member r : m.reductions)
          if (!r.overRows)
            memref::StoreOp::create(b, loc, identity(r.op), partials[j++], ValueRange{bid, c});
      });
      scf::ForOp::create(b, loc, begin, end, index(1), ValueRange(),
                         [&](OpBuilder &nested, Location, Value r, ValueRange) {
                           OpBuilder::InsertionGuard guard(b);
                           b.setInsertionPoint(nested.getInsertionBlock(),
                                               nested.getInsertionPoint());
                           row(r);
                           scf::YieldOp::create(b, loc);
                         });
    }
    // The columns: the last block combines the bands' partials.
    Value isLast = target.isLastBlock(b, loc, ticket, tid, bands, lastScratch);
    auto last = scf::IfOp::create(b, loc, isLast, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&last.getThenRegion().front());
    forColumns(zero, [&](Value c) { finishColumn(c); });
  }

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  Value identity(linalg::GenericOp op) {
    return arith::ConstantOp::create(b, loc, initialValue(op, ops).getValue());
  }

  static bool isFloatSum(linalg::GenericOp op) { return isa<arith::AddFOp>(combinerOf(op)); }

  /// c = tid, tid + blockDim, ... below cols.
  void forColumns(Value from, function_ref<void(Value)> body) {
    scf::ForOp::create(b, loc, arith::AddIOp::create(b, loc, from, tid), cols, blockDim,
                       ValueRange(), [&](OpBuilder &nested, Location, Value c, ValueRange) {
                         OpBuilder::InsertionGuard guard(b);
                         b.setInsertionPoint(nested.getInsertionBlock(),
                                             nested.getInsertionPoint());
                         body(c);
                         scf::YieldOp::create(b, loc);
                       });
  }

  /// The loop indices of `op` at input element `at` (its input's map is a
  /// permutation); `at` holds 0 at the dims it reduces for its result.
  static SmallVector<Value> loopIvs(linalg::GenericOp op, ArrayRef<Value> at) {
    AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
    SmallVector<Value> ivs(at.size());
    for (unsigned d = 0; d < at.size(); ++d)
      ivs[map.getDimPosition(d)] = at[d];
    return ivs;
  }

  /// The reductions' input at element `at`: loaded, or computed by the
  /// prologue from the kernel's inputs (each prologue value stored where
  /// something after the kernel reads it: storePrologue; only where
  /// `valid` holds, when given).
  Value inputAt(ArrayRef<Value> at, Value valid) {
    if (m.prologue.empty())
      return memref::LoadOp::create(b, loc, m.input, at);
    llvm::DenseMap<Value, Value> computed;
    for (auto [i, store] : llvm::enumerate(storePrologue)) {
      linalg::GenericOp op = m.prologue[i];
      Block &body = op.getRegion().front();
      IRMapping mapping;
      for (OpOperand *input : op.getDpsInputOperands()) {
        BlockArgument arg = body.getArgument(input->getOperandNumber());
        if (arg.use_empty())
          continue;
        Value v = computed.lookup(input->get());
        mapping.map(arg, v ? v
                           : memref::LoadOp::create(
                                 b, loc, input->get(),
                                 indices(b, loc, op.getMatchingIndexingMap(input), at))
                                 .getResult());
      }
      Value v = cloneBody(b, op, mapping, at)[0];
      Value buffer = op.getDpsInits()[0];
      computed[buffer] = v;
      if (!store)
        continue;
      if (!valid) {
        memref::StoreOp::create(b, loc, v, buffer, at);
        continue;
      }
      auto inside = scf::IfOp::create(b, loc, valid, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&inside.getThenRegion().front());
      memref::StoreOp::create(b, loc, v, buffer, at);
    }
    return computed.lookup(m.input);
  }

  /// One step of reduction `op` from `acc` with the input element `x`.
  Value step(linalg::GenericOp op, Value x, Value acc, ArrayRef<Value> ivs) {
    Block &body = op.getRegion().front();
    IRMapping mapping;
    mapping.map(body.getArgument(0), x);
    mapping.map(body.getArguments().back(), acc);
    return cloneBody(b, op, mapping, ivs)[0];
  }

  /// Where `op`'s value for the input element `at` goes (0 at reduced dims).
  SmallVector<Value> resultIndex(linalg::GenericOp op, ArrayRef<Value> at, bool overRows) {
    SmallVector<Value> zeroed(at);
    Value zero = index(0);
    for (unsigned d = 0; d < zeroed.size(); ++d)
      if ((d >= m.split) == overRows)
        zeroed[d] = zero;
    return indices(b, loc, op.getMatchingIndexingMap(op.getDpsInitOperand(0)),
                   loopIvs(op, zeroed));
  }

  /// The ops over `overRows`' results at the element each reduction's
  /// `index` names (they read them at their own elements: identity maps).
  void epilogues(bool overRows, llvm::DenseMap<Value, SmallVector<Value>> &indexOf) {
    for (MultiReduction::Member e : m.epilogues) {
      if (e.overRows != overRows)
        continue;
      SmallVector<Value> ivs;
      for (Value in : e.op.getDpsInputs())
        if (auto it = indexOf.find(in); it != indexOf.end()) {
          ivs = it->second;
          break;
        }
      emit.elementwise(e.op, ivs);
      indexOf[e.op.getDpsInits()[0]] = ivs;
    }
  }

  /// Row `r` of the band: its reductions across the block, each column's
  /// value into its partial.
  void row(Value r) {
    SmallVector<Value> rowIvs = delinearize(b, loc, r, rowSizes);
    SmallVector<linalg::GenericOp> overRows;
    for (const MultiReduction::Member &red : m.reductions)
      if (red.overRows)
        overRows.push_back(red.op);
    // (total, lost) a row reduction, from the identity; runs of kSumBlock
    // of this thread's columns are folded plainly, then joined to a float
    // sum's total with a compensated step (as RowEmitter::partialOf).
    SmallVector<Value> inits;
    for (linalg::GenericOp op : overRows)
      inits.append({identity(op), identity(op)});
    Value span = arith::MulIOp::create(b, loc, blockDim, index(RowEmitter::kSumBlock));
    auto runs = scf::ForOp::create(
        b, loc, tid, cols, span, inits,
        [&](OpBuilder &nested, Location, Value first, ValueRange acc) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
          Value stop = arith::MinUIOp::create(b, loc, arith::AddIOp::create(b, loc, first, span), cols);
          SmallVector<Value> runInits;
          for (linalg::GenericOp op : overRows)
            runInits.push_back(identity(op));
          auto run = scf::ForOp::create(
              b, loc, first, stop, blockDim, runInits,
              [&](OpBuilder &inner, Location, Value c, ValueRange runAcc) {
                OpBuilder::InsertionGuard guard(b);
                b.setInsertionPoint(inner.getInsertionBlock(), inner.getInsertionPoint());
                SmallVector<Value> at = rowIvs;
                llvm::append_range(at, delinearize(b, loc, c, colSizes));
                Value x = inputAt(at, /*valid=*/nullptr);
                SmallVector<Value> next;
                unsigned i = 0, j = 0;
                for (MultiReduction::Member red : m.reductions) {
                  SmallVector<Value> ivs = loopIvs(red.op, at);
                  if (red.overRows) {
                    next.push_back(step(red.op, x, runAcc[i++], ivs));
                    continue;
                  }
                  Value p = memref::LoadOp::create(b, loc, partials[j], ValueRange{bid, c});
                  memref::StoreOp::create(b, loc, step(red.op, x, p, ivs), partials[j++],
                                          ValueRange{bid, c});
                }
                scf::YieldOp::create(b, loc, next);
              });
          SmallVector<Value> out;
          for (auto [i, op] : llvm::enumerate(overRows)) {
            Value total = acc[2 * i], lost = acc[2 * i + 1], part = run.getResult(i);
            if (isFloatSum(op)) {
              auto [sum, newLost] = lowering::compensatedAdd(b, loc, total, lost, part);
              out.append({sum, newLost});
            } else {
              out.append({emit.combine(combinerOf(op), total, part), lost});
            }
          }
          scf::YieldOp::create(b, loc, out);
        });
    SmallVector<Value> totals;
    for (auto [i, op] : llvm::enumerate(overRows)) {
      Value total = runs.getResult(2 * i);
      if (isFloatSum(op))
        total = arith::SubFOp::create(b, loc, total, runs.getResult(2 * i + 1));
      totals.push_back(total);
    }
    finishRow(rowIvs, totals);
  }

  /// The row reductions over the rows (in program order), for this thread
  /// of the block.
  SmallVector<linalg::GenericOp> rowReductions() const {
    SmallVector<linalg::GenericOp> out;
    for (MultiReduction::Member red : m.reductions)
      if (red.overRows)
        out.push_back(red.op);
    return out;
  }

  /// Row `r` of the band with each column's partial in registers
  /// (registerColumns of this thread's columns): `acc` the partials,
  /// column reduction by column reduction; returns them updated.
  SmallVector<Value> rowInRegisters(Value r, ValueRange acc) {
    SmallVector<Value> rowIvs = delinearize(b, loc, r, rowSizes);
    SmallVector<linalg::GenericOp> overRows = rowReductions();
    SmallVector<Value> runs, next(acc);
    for (linalg::GenericOp op : overRows)
      runs.push_back(identity(op));
    for (unsigned k = 0; k < registerColumns; ++k) {
      Value c = arith::AddIOp::create(b, loc, tid,
                                      arith::MulIOp::create(b, loc, blockDim, index(k)));
      Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, c, cols);
      // A thread past the last column reads column 0 and keeps nothing.
      SmallVector<Value> at = rowIvs;
      llvm::append_range(
          at, delinearize(b, loc, arith::SelectOp::create(b, loc, valid, c, index(0)), colSizes));
      Value x = inputAt(at, valid);
      unsigned i = 0, j = 0;
      for (MultiReduction::Member red : m.reductions) {
        Value &slot = red.overRows ? runs[i++] : next[(j++) * registerColumns + k];
        slot = arith::SelectOp::create(b, loc, valid, step(red.op, x, slot, loopIvs(red.op, at)),
                                       slot);
      }
    }
    finishRow(rowIvs, runs);
    return next;
  }

  /// The end of a row: its reductions' `totals` (this thread's) combined
  /// across the block and stored by thread 0, then the ops over them.
  void finishRow(ArrayRef<Value> rowIvs, ArrayRef<Value> totals) {
    SmallVector<Value> at(rowIvs);
    at.append(colSizes.size(), index(0));
    llvm::DenseMap<Value, SmallVector<Value>> indexOf;
    for (auto [i, op] : llvm::enumerate(rowReductions())) {
      SmallVector<Value> where = resultIndex(op, at, /*overRows=*/true);
      target.blockCombine(b, loc, combinerOf(op), totals[i], identity(op), tid, blockDim,
                          combineScratch[i], op.getDpsInits()[0], where);
      indexOf[op.getDpsInits()[0]] = where;
    }
    if (llvm::any_of(m.epilogues, [](const MultiReduction::Member &e) { return e.overRows; })) {
      target.barrier(b, loc); // thread 0 stored the row's values
      auto first = scf::IfOp::create(
          b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, index(0)), false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&first.getThenRegion().front());
      epilogues(/*overRows=*/true, indexOf);
    }
    target.barrier(b, loc); // the combine buffers serve the next row
  }

  /// Column `c`: its partials in band order, then the ops over it.
  void finishColumn(Value c) {
    SmallVector<Value> at(rowSizes.size(), index(0));
    llvm::append_range(at, delinearize(b, loc, c, colSizes));
    llvm::DenseMap<Value, SmallVector<Value>> indexOf;
    unsigned j = 0;
    for (MultiReduction::Member red : m.reductions) {
      if (red.overRows)
        continue;
      Value partial = partials[j++];
      Value id = identity(red.op);
      Operation *combine = combinerOf(red.op);
      bool sum = isFloatSum(red.op);
      auto fold = scf::ForOp::create(
          b, loc, index(0), bands, index(1), ValueRange{id, id},
          [&](OpBuilder &nested, Location, Value p, ValueRange acc) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
            Value v = memref::LoadOp::create(b, loc, partial, ValueRange{p, c});
            SmallVector<Value> next;
            if (sum) {
              auto [s, lost] = lowering::compensatedAdd(b, loc, acc[0], acc[1], v);
              next = {s, lost};
            } else {
              next = {emit.combine(combine, acc[0], v), acc[1]};
            }
            scf::YieldOp::create(b, loc, next);
          });
      Value total = fold.getResult(0);
      if (sum)
        total = arith::SubFOp::create(b, loc, total, fold.getResult(1));
      SmallVector<Value> where = resultIndex(red.op, at, /*overRows=*/false);
      memref::StoreOp::create(b, loc, total, red.op.getDpsInits()[0], where);
      indexOf[red.op.getDpsInits()[0]] = where;
    }
    epilogues(/*overRows=*/false, indexOf);
  }

  OpBuilder &b;
  Location loc;
  const MultiReduction &m;
  ArrayRef<linalg::LinalgOp> ops;
  const launch::LaunchTarget &target;
  Layout layout; // unused by the pieces of RowEmitter this emitter calls
  RowEmitter emit;
};

} // namespace

LogicalResult mapMultiReductionKernel(OpBuilder &b, StringAttr name,
                                      ArrayRef<linalg::LinalgOp> ops,
                                      const launch::LaunchTarget &target,
                                      FlatSymbolRefAttr ticket) {
  linalg::LinalgOp lastOp = ops.back();
  Location loc = lastOp.getLoc();
  std::optional<MultiReduction> m = matchMultiReduction(ops);
  if (!m || !isa<MemRefType>(m->input.getType()))
    return emitError(loc, "kernel '")
           << name.getValue()
           << "' (multi_reduction) is no set of reductions over the rows and columns of one "
              "buffer";
  MLIRContext *ctx = b.getContext();
  MultiReductionEmitter emit(b, loc, *m, ops, target);
  llvm::SmallPtrSet<Operation *, 8> kernelOps;
  for (linalg::LinalgOp op : ops)
    kernelOps.insert(op);
  for (linalg::GenericOp op : m->prologue)
    emit.storePrologue.push_back(observed(op.getDpsInits()[0], kernelOps));
  unsigned rank = cast<MemRefType>(m->input.getType()).getRank();
  for (unsigned d = 0; d < rank; ++d)
    (d < m->split ? emit.rowSizes : emit.colSizes)
        .push_back(b.createOrFold<memref::DimOp>(loc, m->input, d));
  auto constant = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value one = constant(1);
  emit.rows = product(b, loc, emit.rowSizes);
  emit.cols = product(b, loc, emit.colSizes);
  // Bands of at least kBandRows rows, at most kMaxBands of them.
  emit.bands = arith::MinUIOp::create(
      b, loc,
      arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, emit.rows, constant(kBandRows)),
                             one),
      constant(kMaxBands));
  emit.bandRows = arith::CeilDivUIOp::create(b, loc, emit.rows, emit.bands);
  // Threads: the columns rounded up to whole warps, at most the target's.
  // With static columns and cooperating threads, a thread owning at most
  // kRegisterColumns columns keeps their partials in registers.
  std::optional<int64_t> staticCols = 1;
  for (unsigned d = m->split; d < rank; ++d) {
    int64_t size = cast<MemRefType>(m->input.getType()).getDimSize(d);
    staticCols = ShapedType::isDynamic(size) ? std::nullopt
                                             : std::optional<int64_t>(*staticCols * size);
    if (!staticCols)
      break;
  }
  Value threads = target.threadsPerBlock(b, loc, [&](Value most) {
    std::optional<int64_t> max = getConstantIntValue(most);
    if (staticCols && max && target.hasCooperativeThreads()) {
      int64_t t = std::min(*max, std::max<int64_t>(32, llvm::divideCeil(*staticCols, 32) * 32));
      int64_t perThread = llvm::divideCeil(*staticCols, t);
      if (perThread <= kRegisterColumns) {
        emit.registerColumns = perThread;
        return constant(t).getResult();
      }
    }
    Value warps = arith::MulIOp::create(
        b, loc, arith::CeilDivUIOp::create(b, loc, emit.cols, constant(32)), constant(32));
    return arith::MinUIOp::create(b, loc, arith::MaxUIOp::create(b, loc, warps, constant(32)),
                                  most)
        .getResult();
  });
  SmallVector<Type> shared;
  SmallVector<size_t> combineSizes;
  for (MultiReduction::Member red : m->reductions) {
    Type type = combinerOf(red.op)->getResult(0).getType();
    if (red.overRows) {
      SmallVector<Type> scratch = target.combineScratch(ctx, type);
      combineSizes.push_back(scratch.size());
      llvm::append_range(shared, scratch);
      continue;
    }
    emit.partials.push_back(memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic}, type),
        ValueRange{emit.bands, emit.cols}));
  }
  size_t numCombine = shared.size();
  llvm::append_range(shared, target.lastBlockScratch(ctx));
  auto launch = buildKernelLaunch(b, loc, name.getValue(),
                                  {emit.bands, one, one, threads, one, one}, shared);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&launch.getBody().front());
    ValueRange workgroup = launch.getWorkgroupAttributions();
    for (size_t n : combineSizes) {
      emit.combineScratch.push_back(workgroup.take_front(n));
      workgroup = workgroup.drop_front(n);
    }
    emit.lastScratch = launch.getWorkgroupAttributions().drop_front(numCombine);
    emit.tid = launch.getThreadIds().x;
    emit.blockDim = launch.getBlockSize().x;
    emit.bid = launch.getBlockIds().x;
    emit.run(ticket);
    finishLaunch(b, loc, launch);
  }
  for (Value p : emit.partials)
    memref::DeallocOp::create(b, loc, p);
  return success();
}

} // namespace kfuse::gpu
