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
#include "mlir/Interfaces/ControlFlowInterfaces.h" // RegionBranchOpInterface
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"


namespace kfuse {
#define GEN_PASS_DEF_KFTOLINALG
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;
using namespace kfuse;

namespace {

bool isTensor(Type type) { return isa<TensorType>(type); }

/// Whether `op` or an op nested in it has a tensor operand or result.
bool touchesTensors(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        return llvm::any_of(inner->getOperandTypes(), isTensor) ||
                       llvm::any_of(inner->getResultTypes(), isTensor)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// kfuse compiles straight-line programs of tensor ops: kernels are formed,
/// bufferized and launched in one block. Control flow over tensors (a loop
/// carrying a tensor in its iter_args, an scf.if on a scalar argument
/// yielding one, tensor ops inside either) is refused here, at the op,
/// before any lowering: past this point it failed inside
/// upstream's bufferization ("Yield operand #0 is not equivalent to the
/// corresponding iter bbArg") or kf-device-buffers (the strided buffer an
/// scf.if's result becomes). Control flow over scalars alone is left as is,
/// and so is kf.kernel, kfuse's own region (already lowered IR). Branches
/// between blocks (cf) are kf-form-kernels' to refuse: it needs one block.
LogicalResult refuseTensorControlFlow(Operation *root) {
  const char *advice =
      ": kfuse compiles straight-line tensor programs, with no loop or branch "
      "over tensors";
  bool refused = false;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<kf::KernelOp>(op))
      return WalkResult::skip();
    auto refuse = [&](const Twine &what, const char *instead) {
      op->emitError() << "'" << op->getName() << "' " << what << " is not supported"
                      << advice << "; " << instead;
      refused = true;
      return WalkResult::skip(); // one error for the whole construct
    };
    auto loop = dyn_cast<LoopLikeOpInterface>(op);
    if (loop && llvm::any_of(loop.getRegionIterArgs(),
                             [](Value v) { return isTensor(v.getType()); }))
      return refuse("with iter_args carrying a tensor",
                    "unroll the loop, or loop around the compiled program");
    if (loop && touchesTensors(op))
      return refuse("around tensor ops",
                    "unroll the loop, or loop around the compiled program");
    if (isa<RegionBranchOpInterface>(op) && !isa<LoopLikeOpInterface>(op)) {
      if (llvm::any_of(op->getResultTypes(), isTensor))
        return refuse("yielding a tensor",
                      "compute both sides and pick with kf.where, or branch "
                      "around the compiled program");
      if (touchesTensors(op))
        return refuse("around tensor ops",
                      "compute both sides and pick with kf.where, or branch "
                      "around the compiled program");
    }
    return WalkResult::advance();
  });
  return failure(refused);
}

struct KfToLinalgPass : kfuse::impl::KfToLinalgBase<KfToLinalgPass> {
  using KfToLinalgBase::KfToLinalgBase;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    Operation *root = getOperation();
    if (failed(refuseTensorControlFlow(root)))
      return signalPassFailure();

    // Stage 1, still in kf: decompose composites, and let elementwise ops
    // read through broadcast_to. This must finish before any op is lowered,
    // or a lowered broadcast_to could no longer be absorbed.
    RewritePatternSet prepare(ctx);
    populateKfDecomposePatterns(prepare, f64Moments);
    kf::populateAbsorbBroadcastPatterns(prepare);
    kf::populateViewPlacementPatterns(prepare);
    kf::populatePowByConstantPatterns(prepare);
    if (mergeReductions)
      kf::populateReductionChainPatterns(prepare);
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
    lowering::populateGatherToLinalg(patterns);
    lowering::populateScanToLinalg(patterns);
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      return signalPassFailure();

    // Stage 3: the readers of views read them in place.
    lowering::readTransposedMatmulOperands(root);
    if (failed(lowering::foldViewsIntoReaders(root)))
      signalPassFailure();
  }
};
} // namespace
