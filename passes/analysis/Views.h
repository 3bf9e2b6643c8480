//===- Views.h - tensor ops that are views, not kernels ---------*- C++ -*-===//
#ifndef KFUSE_PASSES_ANALYSIS_VIEWS_H
#define KFUSE_PASSES_ANALYSIS_VIEWS_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kfuse::analysis {

/// The tensor `v` is a view of, when `v` is a reshape (collapse/expand) or a
/// cast of it: the same elements in the same order, no kernel. Null
/// otherwise.
inline mlir::Value viewSource(mlir::Value v) {
  mlir::Operation *def = v.getDefiningOp();
  if (auto c = llvm::dyn_cast_or_null<mlir::tensor::CollapseShapeOp>(def))
    return c.getSrc();
  if (auto e = llvm::dyn_cast_or_null<mlir::tensor::ExpandShapeOp>(def))
    return e.getSrc();
  if (auto cast = llvm::dyn_cast_or_null<mlir::tensor::CastOp>(def))
    return cast.getSource();
  return {};
}

} // namespace kfuse::analysis

#endif // KFUSE_PASSES_ANALYSIS_VIEWS_H
