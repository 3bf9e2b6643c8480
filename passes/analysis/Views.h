//===- Views.h - tensor ops that are views, not kernels ---------*- C++ -*-===//
#ifndef KFUSE_PASSES_ANALYSIS_VIEWS_H
#define KFUSE_PASSES_ANALYSIS_VIEWS_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kfuse::analysis {

/// The tensor `v` is a view of, when `v` is a reshape (collapse/expand) or a
/// cast of it (the same elements in the same order), or a part of it
/// (tensor.extract_slice, kf.slice's truncation): no kernel. Null
/// otherwise.
inline mlir::Value viewSource(mlir::Value v) {
  mlir::Operation *def = v.getDefiningOp();
  if (auto c = llvm::dyn_cast_or_null<mlir::tensor::CollapseShapeOp>(def))
    return c.getSrc();
  if (auto e = llvm::dyn_cast_or_null<mlir::tensor::ExpandShapeOp>(def))
    return e.getSrc();
  if (auto cast = llvm::dyn_cast_or_null<mlir::tensor::CastOp>(def))
    return cast.getSource();
  if (auto slice = llvm::dyn_cast_or_null<mlir::tensor::ExtractSliceOp>(def))
    return slice.getSource();
  return {};
}

/// `shape` without its static 1s: two shapes equal but for unit dims hold
/// their elements in the same order.
inline llvm::SmallVector<int64_t> nonUnitDims(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t> out;
  for (int64_t d : shape)
    if (d != 1)
      out.push_back(d);
  return out;
}

} // namespace kfuse::analysis

#endif // KFUSE_PASSES_ANALYSIS_VIEWS_H
