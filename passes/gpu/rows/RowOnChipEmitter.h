//===- RowOnChipEmitter.h - the code of one row, on chip --------*- C++ -*-===//
//
// Shared by RowOnChip.cpp (the register form and the pieces), and
// RowOnChipLoop.cpp (the looped form, the launch).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_GPU_ROWS_ROWONCHIPEMITTER_H
#define KFUSE_PASSES_GPU_ROWS_ROWONCHIPEMITTER_H

#include "passes/gpu/rows/RowOnChip.h"

#include <map>

namespace kfuse::gpu::rows {

/// V consecutive columns of the row (one vector) a thread works on.
struct Slot {
  Value valid;                         // i1; null when always in the row
  SmallVector<SmallVector<Value>> ivs; // per lane: the full loop indices
};

/// What a slot has computed so far: the values of column ops and the
/// loads from global memory (by buffer and indexing map), per lane.
struct Memo {
  llvm::DenseMap<unsigned, SmallVector<SmallVector<Value>>> columns;
  std::map<std::pair<const void *, const void *>, SmallVector<Value>> loads;
};

/// Two reductions of a long row in one pass (RowOnChipOnline.cpp): a max
/// and a sum of exp(a - max) (softmax), or a sum S and a sum of (a - c)^2
/// with c computed from S (layer_norm's mean and variance); `first`'s
/// terms are the a's. `center`: where c is (an op and a value of its body).
struct OnlinePair {
  unsigned first, second;
  enum Kind { MaxExpSum, SumSquares } kind;
  std::pair<unsigned, Value> center;
};
/// The pair reduction `i` starts with the next reduction (only column ops
/// and fills between them), or nullopt.
std::optional<OnlinePair> findOnlinePair(const RowPlan &plan, unsigned i);

class OnChip {
public:
  /// `target`: a GPU (cooperating threads); its combines are this
  /// emitter's own (shuffles, the row's slots).
  OnChip(OpBuilder &b, Location loc, const RowPlan &plan, const Layout &layout,
         const launch::LaunchTarget &target)
      : b(b), loc(loc), plan(plan), layout(layout), emit(b, loc, layout, target) {}

  OpBuilder &b;
  Location loc;
  const RowPlan &plan;
  const Layout &layout;
  RowEmitter emit; // warp shuffles, loop indices, result indices
  Value tid, blockDim, cols;
  int64_t staticThreads = 0; // 0: known at run time
  SmallVector<Value> rowIvs, colSizes;
  /// Per reduction and row op: its results (the same in every thread).
  llvm::DenseMap<unsigned, SmallVector<Value>> rowValues;

  /// The register form: `perThread` elements a thread; `shared` one
  /// buffer of 32 a reduction, in program order.
  void registers(int64_t perThread, ArrayRef<Value> shared);
  /// The looped form (RowOnChipLoop.cpp).
  void looped(ArrayRef<Value> shared);

  Value constant(int64_t v);
  Value identityOf(unsigned i);
  /// `body()` where `valid` (zeros of `types` elsewhere); always without.
  SmallVector<Value> guarded(Value valid, TypeRange types,
                             function_ref<SmallVector<Value>()> body);
  /// The slot whose lane 0 is flat column `first`.
  Slot slot(Value first, Value valid);
  bool vectorizable(AffineMap map, MemRefType type) const;
  IntegerAttr alignment(Type element);
  /// The lanes of `input` read through `map` (loaded once a slot).
  SmallVector<Value> load(OpOperand *input, AffineMap map, Slot &s, Memo &memo);
  void store(OpOperand &init, AffineMap map, ArrayRef<Value> lanes, Slot &s);
  /// Op i's body at `lane` (a reduction's accumulator `acc`).
  SmallVector<Value> body(unsigned i, unsigned lane, Slot &s, Memo &memo, Value acc);
  /// Column op i's results at the slot's lanes.
  ArrayRef<SmallVector<Value>> columns(unsigned i, Slot &s, Memo &memo);
  void storeColumns(unsigned i, Slot &s, Memo &memo);
  /// Reduction i over the slot's lanes from `acc` (unchanged when invalid).
  Value fold(unsigned i, Slot &s, Memo &memo, Value acc);
  /// The block's total of the threads' partials, in every thread.
  Value allReduce(Operation *combiner, Value partial, Value identity, Value shared);
  void onThreadZero(function_ref<void()> body);
  /// Combines reduction i's partials; thread 0 stores it when it must.
  void finishReduction(unsigned i, Value partial, Value identity, Value shared);
  /// Row op i, in every thread; thread 0 stores it when it must.
  void rowValue(unsigned i);
  /// Records `total` as reduction i's value; thread 0 stores it when it must.
  void setRowValue(unsigned i, Value total);
  /// for s = tid; s < slots; s += blockDim, with `inits`; `body` builds an
  /// iteration and returns what it yields.
  scf::ForOp overSlots(Value slots, ValueRange inits,
                       function_ref<SmallVector<Value>(Value, ValueRange)> body);
  /// The pair's one pass (RowOnChipOnline.cpp), then both row values.
  void onlineSoftmax(const OnlinePair &p, Value sharedMax, Value sharedSum, Value slots,
                     function_ref<Slot(Value)> slotAt);
  void onlineMoments(const OnlinePair &p, Value sharedSum, Value sharedSquares, Value slots,
                     function_ref<Slot(Value)> slotAt);
  /// Value `v` of op `op`'s body where row op `row`'s value is `total` (it
  /// depends on nothing else of the row).
  Value centerOf(unsigned op, Value v, unsigned row, Value total);
};

} // namespace kfuse::gpu::rows

#endif // KFUSE_PASSES_GPU_ROWS_ROWONCHIPEMITTER_H
