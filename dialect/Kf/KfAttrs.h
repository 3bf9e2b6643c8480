//===- KfAttrs.h - the kernel contract's attributes -------------*- C++ -*-===//
#ifndef KFUSE_DIALECT_KF_KFATTRS_H
#define KFUSE_DIALECT_KF_KFATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "dialect/Kf/KfEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialect/Kf/KfAttrs.h.inc"

namespace mlir {
class Operation;
} // namespace mlir

namespace kfuse::kf {

// The discardable attributes of the kf dialect (KfDialect.td says what each
// means), read and written only through these: no pass spells their names.

/// `kf.op`: the eager op a linalg op stands for ("add", "sum"); empty when
/// the op has none.
llvm::StringRef getEagerOpName(mlir::Operation *op);
void setEagerOpName(mlir::Operation *op, llvm::StringRef name);

/// `kf.finishes`: the op finishes the reduction or matmul it reads, in the
/// same eager kernel.
bool isFinisher(mlir::Operation *op);
void setFinisher(mlir::Operation *op);

/// `kf.view`: the op is the copy of a view (transpose, slice), folded into
/// its readers by kf-to-linalg where they can read the view in place.
bool isView(mlir::Operation *op);
void setView(mlir::Operation *op);

/// `kf.stable_shift`: the max that softmax subtracts (kf-decompose).
bool isStableShift(mlir::Operation *op);
void setStableShift(mlir::Operation *op);

/// `kf.boundaries`: the boundaries kf-form-kernels left in a function.
llvm::SmallVector<BoundaryAttr> getBoundaries(mlir::Operation *func);
void setBoundaries(mlir::Operation *func, llvm::ArrayRef<BoundaryAttr> all);
/// Drops them from `op` and every op nested in it: once kernels are
/// launches or are spliced in place, no kernel they name is left (and the
/// LLVM IR's readers, mlir-runner, do not know the kf dialect).
void removeBoundaries(mlir::Operation *op);

/// `kf.host_kernel`: the kernel a host function runs one block of; empty
/// when the function is none.
llvm::StringRef getHostKernel(mlir::Operation *func);
void setHostKernel(mlir::Operation *func, llvm::StringRef kernel);

} // namespace kfuse::kf

#endif // KFUSE_DIALECT_KF_KFATTRS_H
