//===- KfOps.h - kf ops -----------------------------------------*- C++ -*-===//
#ifndef KFUSE_DIALECT_KF_KFOPS_H
#define KFUSE_DIALECT_KF_KFOPS_H

#include "dialect/Kf/KfAttrs.h"
#include "dialect/Kf/KfDialect.h"
#include "dialect/Kf/KfTypeRules.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kfuse::kf {
/// Ops that apply one scalar function to their broadcast operands.
template <typename ConcreteType>
class KfElementwise
    : public mlir::OpTrait::TraitBase<ConcreteType, KfElementwise> {};

/// Rewrites that fold a kf.broadcast_to into the elementwise op that reads
/// it (the op's implicit broadcasting does the same). Used by the
/// canonicalizer and by kf-to-linalg, so a broadcast never costs a kernel.
void populateAbsorbBroadcastPatterns(mlir::RewritePatternSet &patterns);
/// Rewrites that put a view where its readers can read it in place: a slice
/// after the reshape that splits its dims (reshape(slice(x)) ->
/// slice(reshape(x))). Used by the canonicalizer and by kf-to-linalg.
void populateViewPlacementPatterns(mlir::RewritePatternSet &patterns);
/// pow by the constant exponents PyTorch's own kernels compute without
/// pow (2, 3, 0.5, -0.5, -1, -2) as those ops. Used by the canonicalizer
/// and by kf-to-linalg, so that no pipeline leaves a pow(x, 3) to libm.
void populatePowByConstantPatterns(mlir::RewritePatternSet &patterns);
/// A reduction of a reduction of the same kind, the inner one read by
/// nothing else, as one reduction over both ops' dims (x.sum(0).sum(0) ->
/// x.sum((0, 1)); sum, max and min; both keepdim or neither; not into a
/// full reduction, which a row_chain kernel already forms). Not a
/// canonicalization: eager PyTorch runs two kernels, so kf-to-linalg uses
/// it only for fused programs (`merge-reductions`, set by the pipelines
/// from the fusion rule reduction-chain).
void populateReductionChainPatterns(mlir::RewritePatternSet &patterns);
} // namespace kfuse::kf

#define GET_OP_CLASSES
#include "dialect/Kf/KfOps.h.inc"

#endif // KFUSE_DIALECT_KF_KFOPS_H
