//===- Lowering.h - shared pieces of kf-to-linalg ---------------*- C++ -*-===//
#ifndef KFUSE_PASSES_LOWERING_LOWERING_H
#define KFUSE_PASSES_LOWERING_LOWERING_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace kfuse::lowering {

//===- Broadcasting (BroadcastUtils.cpp) ----------------------------------===//

/// Size of dim `dim` of `tensor` as an index value.
mlir::Value dimValue(mlir::OpBuilder &b, mlir::Location loc, mlir::Value tensor,
                     int64_t dim);

/// The sizes of a broadcast result of shape `resultShape` whose operands are
/// `operands`, of which the leading `ranks[k]` dims of operand k take part
/// (aligned from the right with the result). Returns the values of the
/// dynamic result dims and emits a cf.assert for every dynamic operand dim
/// that must equal the result size (a dynamic dim never broadcasts).
llvm::SmallVector<mlir::Value>
broadcastSizes(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef opName,
               mlir::ValueRange operands, llvm::ArrayRef<int64_t> ranks,
               llvm::ArrayRef<int64_t> resultShape);

/// An operand prepared for a linalg op: `value` has the dims that stretch
/// collapsed away (tensor.collapse_shape moves no data) and `loopDims` gives,
/// for each remaining dim, the loop it is indexed by.
struct BroadcastOperand {
  mlir::Value value;
  llvm::SmallVector<int64_t> loopDims;
};

/// Prepares `operand`, whose leading `rank` dims are read as broadcast to
/// `resultShape` (loops 0..resultShape.size()-1); the dims after `rank` are
/// indexed by `trailingLoops`.
BroadcastOperand broadcastOperand(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::Value operand, int64_t rank,
                                  llvm::ArrayRef<int64_t> resultShape,
                                  llvm::ArrayRef<int64_t> trailingLoops = {});

/// The indexing map of a BroadcastOperand in a nest of `numLoops` loops.
mlir::AffineMap operandMap(mlir::MLIRContext *ctx, int64_t numLoops,
                           llvm::ArrayRef<int64_t> loopDims);

/// A tensor.empty of `type` whose dynamic sizes are `dynamicSizes`.
mlir::Value emptyTensor(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type,
                        mlir::ValueRange dynamicSizes);

//===- Scalar semantics (ScalarOps.cpp) -----------------------------------===//

/// Converts a scalar as `Tensor.to(dtype)` does (float to int truncates,
/// anything to bool is `x != 0`, bool to number is 0 or 1).
mlir::Value castScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                       mlir::Type to);

/// The element type an elementwise kf op computes in: its promoted operand
/// dtype, with f16 and bf16 widened to f32 (as PyTorch's kernels do).
mlir::Type computeType(mlir::Operation *op);

/// The scalar body of elementwise kf op `op` on `args`, already converted to
/// computeType(op) (where's condition stays i1). Returns a value of the
/// op's result element type.
mlir::Value buildElementwiseScalar(mlir::OpBuilder &b, mlir::Location loc,
                                   mlir::Operation *op, mlir::ValueRange args);

/// A scalar constant of `type` (float or integer).
mlir::Value scalarConstant(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Type type, double value);

/// Marks `linalgOp` as the kernel that eager PyTorch launches for `kfOp`:
/// the discardable attribute `kf.op` names the kf op ("add", "sum", ...), so
/// that kernel formation and the report can say which ops a kernel holds.
void tagKernel(mlir::Operation *linalgOp, mlir::Operation *kfOp);

/// Completes a reduction or matmul whose accumulator `acc` is wider than
/// its result or needs a division (mean): an elementwise linalg.generic that
/// divides by `divisor` (if any) and converts to `resultElt`, marked
/// `kf.finishes` so that it stays in the eager kernel of the op it
/// completes. `dynamicSizes` are acc's dynamic sizes.
mlir::Value finishReduction(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value acc, mlir::Type resultElt,
                            mlir::Value divisor, mlir::ValueRange dynamicSizes);

//===- Pattern sets ------------------------------------------------------===//

void populateElementwiseToLinalg(mlir::RewritePatternSet &patterns);
void populateReductionToLinalg(mlir::RewritePatternSet &patterns);
void populateStructuredToLinalg(mlir::RewritePatternSet &patterns);
void populateShapeToTensor(mlir::RewritePatternSet &patterns);
void populateViewsToLinalg(mlir::RewritePatternSet &patterns);
void populateConcatToLinalg(mlir::RewritePatternSet &patterns);
void populateGatherToLinalg(mlir::RewritePatternSet &patterns);
void populateScanToLinalg(mlir::RewritePatternSet &patterns);

/// Folds every view copy (`kf.view`) into the linalg.generics that read it
/// (ViewsToLinalg.cpp); a view nothing can read in place stays a copy.
mlir::LogicalResult foldViewsIntoReaders(mlir::Operation *root);

/// Makes every matmul read an operand that is a transpose of the last two
/// dims in place, through its indexing map (StructuredToLinalg.cpp); the
/// transpose's copy stays only if something else reads it.
void readTransposedMatmulOperands(mlir::Operation *root);

} // namespace kfuse::lowering

#endif // KFUSE_PASSES_LOWERING_LOWERING_H
