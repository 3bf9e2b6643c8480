//===- KfDialect.h - the kf dialect -----------------------------*- C++ -*-===//
#ifndef KFUSE_DIALECT_KF_KFDIALECT_H
#define KFUSE_DIALECT_KF_KFDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dialect/Kf/KfDialect.h.inc"

#endif // KFUSE_DIALECT_KF_KFDIALECT_H
