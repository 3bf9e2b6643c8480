//===- ReshapeRules.h - what reshape propagation may rewrite ----*- C++ -*-===//
//
// Shared by the collapsing (CollapseReshapes.cpp) and expanding
// (ReshapePropagation.cpp) halves of kf-propagate-reshapes.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_RESHAPES_RESHAPERULES_H
#define KFUSE_PASSES_RESHAPES_RESHAPERULES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace kfuse::fusion {

/// Whether `op` may iterate over other dims: a linalg.generic, not a
/// contraction, that reads and writes its operands at plain loops
/// (projected permutations: not a slice's offset `d2 + 96`, which
/// collapsing cannot express) and whose body neither reads its indices nor
/// gathers (the gather analysis reads the loops of a captured read).
bool canCollapse(mlir::linalg::GenericOp op);

/// The loops of `op` that a reshape's groups of dims of one of its operands
/// (read or written through `map`) run over, for each group of more than
/// one dim; none if a group's dims are not plain loops, or their loops are
/// not contiguous in every map, not all of one iterator type, or sized
/// statically by one operand and at run time by another.
llvm::SmallVector<mlir::ReassociationIndices>
loopGroups(mlir::linalg::GenericOp op, mlir::AffineMap map,
           llvm::ArrayRef<mlir::ReassociationIndices> reassociation);

/// What a run counts, and whether it says what it does in remarks.
struct Progress {
  unsigned ops = 0;
  bool remarks = true;
};

/// The patterns that collapse an op read through `tensor.expand_shape` or
/// written through `tensor.collapse_shape`, with the ops around it
/// (CollapseReshapes.cpp), counting into `progress`.
void populateCollapseReshapePatterns(mlir::RewritePatternSet &patterns,
                                     Progress &progress);

} // namespace kfuse::fusion

#endif // KFUSE_PASSES_RESHAPES_RESHAPERULES_H
