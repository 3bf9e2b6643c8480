//===- AxisReductions.h - a reduction over leading or trailing dims -*- C++ -*-===//
//
// One reading of a reduction for the multi-reduction rule (kernel
// formation) and its mapping (gpu/rows/MultiReductions.cpp): which of its
// input's dims it reduces. Reductions of one tensor over its trailing dims
// (its rows: `x.sum(1)`) and over its leading dims (its columns:
// `x.max(0)`) can share one pass over the tensor.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_ANALYSIS_AXISREDUCTIONS_H
#define KFUSE_PASSES_ANALYSIS_AXISREDUCTIONS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kfuse::analysis {

/// A reduction of `input` (rank >= 2) over its dims [split, rank)
/// (`overRows`: each row's columns) or [0, split) (each column's rows).
struct AxisReduction {
  mlir::Value input;
  bool overRows;
  unsigned split;
};

/// `op` as an AxisReduction: one input, read through a permutation of its
/// loops, one result; its reduced dims (through that map) a non-empty
/// proper prefix or suffix of the input's. Nullopt otherwise.
inline std::optional<AxisReduction> axisReductionOf(mlir::linalg::GenericOp op) {
  using namespace mlir;
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1)
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  unsigned rank = map.getNumResults();
  if (!map.isPermutation() || rank < 2)
    return std::nullopt;
  auto iterators = op.getIteratorTypesArray();
  llvm::SmallVector<bool> reduced;
  for (unsigned d = 0; d < rank; ++d)
    reduced.push_back(iterators[map.getDimPosition(d)] == utils::IteratorType::reduction);
  unsigned k = llvm::count(reduced, true);
  auto all = [](llvm::ArrayRef<bool> r) { return llvm::all_of(r, [](bool x) { return x; }); };
  bool overRows = all(llvm::ArrayRef(reduced).drop_front(rank - k));
  bool overCols = all(llvm::ArrayRef(reduced).take_front(k));
  if (k == rank || (!overRows && !overCols))
    return std::nullopt;
  return AxisReduction{op.getDpsInputs()[0], overRows, overRows ? rank - k : k};
}

} // namespace kfuse::analysis

#endif // KFUSE_PASSES_ANALYSIS_AXISREDUCTIONS_H
