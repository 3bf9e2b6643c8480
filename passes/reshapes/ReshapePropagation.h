//===- ReshapePropagation.h - reshapes out of kernels' way -*- C++ -*-===//
#ifndef KFUSE_PASSES_RESHAPES_RESHAPEPROPAGATION_H
#define KFUSE_PASSES_RESHAPES_RESHAPEPROPAGATION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace kfuse::fusion {

/// Moves the reshapes between linalg ops of `func` out of the way of
/// kernels (`reshape-propagation`): an elementwise op or a reduction that
/// reads a value through an expanding reshape, or whose result a collapsing
/// reshape reads, iterates over the collapsed dims instead, when every op
/// next to it can follow; an elementwise op read only through an expanding
/// reshape by a reduction that cannot be collapsed iterates over the
/// expanded dims. What is left are reshapes of arguments and results and of
/// matmul operands, which are views, and those that would only move. Each
/// op rewritten is reported as a remark (with `remarks`); returns how many
/// were.
mlir::FailureOr<unsigned> propagateReshapes(mlir::func::FuncOp func,
                                            bool remarks = true);

} // namespace kfuse::fusion

#endif // KFUSE_PASSES_RESHAPES_RESHAPEPROPAGATION_H
