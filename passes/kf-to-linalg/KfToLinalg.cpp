//===- KfToLinalg.cpp - kf to linalg on tensors ---------------------------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "passes/kf-to-linalg/Lowering.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"


namespace kfuse {
#define GEN_PASS_DEF_KFTOLINALG
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;
using namespace kfuse;

namespace {
struct KfToLinalgPass : kfuse::impl::KfToLinalgBase<KfToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    Operation *root = getOperation();

    // Stage 1, still in kf: decompose composites, and let elementwise ops
    // read through broadcast_to. This must finish before any op is lowered,
    // or a lowered broadcast_to could no longer be absorbed.
    RewritePatternSet prepare(ctx);
    populateKfDecomposePatterns(prepare);
    kf::populateAbsorbBroadcastPatterns(prepare);
    if (failed(applyPatternsGreedily(root, std::move(prepare))))
      return signalPassFailure();

    // Stage 2: every kf op to linalg, tensor and arith.
    ConversionTarget target(*ctx);
    target.addIllegalDialect<kf::KfDialect>();
    target.addLegalOp<kf::KernelOp, kf::YieldOp>(); // already lowered IR
    target.addLegalDialect<arith::ArithDialect, cf::ControlFlowDialect,
                           linalg::LinalgDialect, math::MathDialect,
                           tensor::TensorDialect>();
    RewritePatternSet patterns(ctx);
    lowering::populateElementwiseToLinalg(patterns);
    lowering::populateReductionToLinalg(patterns);
    lowering::populateStructuredToLinalg(patterns);
    lowering::populateShapeToTensor(patterns);
    lowering::populateViewsToLinalg(patterns);
    lowering::populateConcatToLinalg(patterns);
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      return signalPassFailure();

    // Stage 3: the readers of views read them in place.
    lowering::readTransposedMatmulOperands(root);
    if (failed(lowering::foldViewsIntoReaders(root)))
      signalPassFailure();
  }
};
} // namespace
