//===- UnrollReduction.h - a small reduction as straight-line code -*- C++ -*-===//
#ifndef KFUSE_PASSES_UTILS_UNROLLREDUCTION_H
#define KFUSE_PASSES_UTILS_UNROLLREDUCTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace kfuse {

/// Rewrites `op`'s reduction loops, static and of at most `maxElements`
/// iterations in all, as straight-line code: an elementwise
/// linalg.generic over its parallel loops whose body applies `op`'s body
/// once per reduced index, in the loops' order (the last reduced loop
/// fastest), each time on the inputs read at that index and on the value
/// so far (the init first: its filled value when a linalg.fill makes it). Each input is read once per reduced index, its
/// map `op`'s with the reduced dims made constants:
///
///   s[i, j] = sum_k x[i, k] * y[j, k]  (k < 3)
///   ->  s[i, j] = ((s0 + x[i, 0] * y[j, 0]) + x[i, 1] * y[j, 1]) + x[i, 2] * y[j, 2]
///
/// So the result, rounding included, is the loop's. A reader that
/// reduces the result further can then take the op as its prologue
/// (upstream elementwise fusion needs an all-parallel producer). Fails,
/// changing nothing, when `op` has several results, reads an index
/// (linalg.index), or its reduced loops are dynamic or too many.
mlir::FailureOr<mlir::linalg::GenericOp>
unrollReductionLoops(mlir::RewriterBase &rewriter, mlir::linalg::GenericOp op,
                     int64_t maxElements);

} // namespace kfuse

#endif // KFUSE_PASSES_UTILS_UNROLLREDUCTION_H
