//===- KfDialect.h - the kf dialect -----------------------------*- C++ -*-===//
#ifndef KFUSE_DIALECT_KF_KFDIALECT_H
#define KFUSE_DIALECT_KF_KFDIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h" // the helpers of discardable attributes (kf.finishes)

#include "dialect/Kf/KfDialect.h.inc"

#endif // KFUSE_DIALECT_KF_KFDIALECT_H
