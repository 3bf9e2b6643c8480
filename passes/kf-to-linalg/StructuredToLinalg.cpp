//===- StructuredToLinalg.cpp - matmul to linalg ------------------------===//
//
// A matmul is one linalg op (its eager kernel). An operand that is a
// transpose of the last two dims (`a.t() @ b`, `x @ w.transpose(-1, -2)`)
// is read in place: the transpose's view copy is folded into the matmul's
// indexing map, as eager PyTorch hands the transposed layout to its GEMM.
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfAttrs.h"
#include "dialect/Kf/KfOps.h"
#include "passes/kf-to-linalg/Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace kfuse::kf;

namespace kfuse::lowering {
namespace {

/// 2-D: linalg.matmul. Batched (batch dims broadcast): one linalg.generic
/// with loops (batch..., m, n, k), since linalg.batch_matmul takes neither
/// several batch dims nor broadcasting ones.
struct MatmulToLinalg : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto rhsType = cast<RankedTensorType>(rhs.getType());
    auto resultType = op.getType();
    Type elt = resultType.getElementType();
    int64_t rank = resultType.getRank(), batch = rank - 2;

    if (lhsType.isDynamicDim(lhsType.getRank() - 1) ||
        rhsType.isDynamicDim(rhsType.getRank() - 2)) {
      Value k1 = dimValue(rewriter, loc, lhs, lhsType.getRank() - 1);
      Value k2 = dimValue(rewriter, loc, rhs, rhsType.getRank() - 2);
      Value eq = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       k1, k2);
      cf::AssertOp::create(rewriter, loc, eq,
                           "kf.matmul: inner dims differ at run time");
    }
    SmallVector<Value> sizes = broadcastSizes(
        rewriter, loc, op->getName().getStringRef(), {lhs, rhs},
        {lhsType.getRank() - 2, rhsType.getRank() - 2},
        resultType.getShape().drop_back(2));
    if (resultType.isDynamicDim(rank - 2))
      sizes.push_back(dimValue(rewriter, loc, lhs, lhsType.getRank() - 2));
    if (resultType.isDynamicDim(rank - 1))
      sizes.push_back(dimValue(rewriter, loc, rhs, rhsType.getRank() - 1));
    // f16 and bf16 products accumulate in f32 (as PyTorch's GEMMs do) and
    // are rounded once, by an op that finishes the matmul's kernel.
    Type resultElt = elt;
    if (isa<FloatType>(elt) && elt.getIntOrFloatBitWidth() < 32)
      elt = rewriter.getF32Type();
    auto accType = resultType.clone(elt);
    auto finish = [&](Operation *matmul) {
      tagKernel(matmul, op);
      Value result = matmul->getResult(0);
      if (elt != resultElt)
        result = finishReduction(rewriter, loc, result, resultElt, Value(), sizes);
      rewriter.replaceOp(op, result);
      return success();
    };
    Value init = emptyTensor(rewriter, loc, accType, sizes);
    Value zero = scalarConstant(rewriter, loc, elt, 0);
    init = linalg::FillOp::create(rewriter, loc, zero, init).getResult(0);

    if (batch == 0 && lhsType.getRank() == 2 && rhsType.getRank() == 2) {
      // linalg.matmul converts its operands to the result type itself.
      return finish(linalg::MatmulOp::create(rewriter, loc, accType,
                                             ValueRange{lhs, rhs},
                                             ValueRange{init}));
    }

    int64_t m = batch, n = batch + 1, k = batch + 2;
    ArrayRef<int64_t> batchShape = resultType.getShape().drop_back(2);
    BroadcastOperand a = broadcastOperand(rewriter, loc, lhs,
                                          lhsType.getRank() - 2, batchShape, {m, k});
    BroadcastOperand b = broadcastOperand(rewriter, loc, rhs,
                                          rhsType.getRank() - 2, batchShape, {k, n});
    SmallVector<int64_t> outLoops;
    for (int64_t i = 0; i < rank; ++i)
      outLoops.push_back(i);
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineMap> maps = {operandMap(ctx, rank + 1, a.loopDims),
                                   operandMap(ctx, rank + 1, b.loopDims),
                                   operandMap(ctx, rank + 1, outLoops)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    bool isFloat = isa<FloatType>(elt);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, accType, ValueRange{a.value, b.value}, init, maps,
        iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
          Value x = castScalar(nb, l, args[0], elt);
          Value y = castScalar(nb, l, args[1], elt);
          Value r = isFloat ? Value(arith::AddFOp::create(
                                  nb, l, args[2], arith::MulFOp::create(nb, l, x, y)))
                            : Value(arith::AddIOp::create(
                                  nb, l, args[2], arith::MulIOp::create(nb, l, x, y)));
          linalg::YieldOp::create(nb, l, r);
        });
    return finish(generic);
  }
};

/// Whether `op` is a kf.transpose's view copy (ViewsToLinalg.cpp) that
/// swaps the last two dims and keeps the batch dims in place: the one
/// transpose a matmul reads in place (its GPU mapping reads an operand
/// either as it is or transposed).
bool swapsLastTwoDims(linalg::GenericOp op) {
  if (!isView(op) || getEagerOpName(op) != "transpose" || op.getNumDpsInputs() != 1)
    return false;
  AffineMap read = op.getIndexingMapsArray()[0];
  unsigned rank = read.getNumDims();
  if (rank < 2 || !read.isPermutation())
    return false;
  for (unsigned i = 0; i < rank; ++i) {
    unsigned expected = i + 2 < rank ? i : 2 * rank - 3 - i; // rank-1 <-> rank-2
    if (read.getDimPosition(i) != expected)
      return false;
  }
  return true;
}

/// The sizes of a view read through tensor.dim (the matmul's result sizes,
/// its inner-dim check) as sizes of the tensor underneath, so that nothing
/// is left reading the view but the ops that need its copy.
void readSizesUnderneath(RewriterBase &rewriter, linalg::GenericOp view) {
  Value source = view.getDpsInputs()[0];
  AffineMap toView = inversePermutation(view.getIndexingMapsArray()[0]);
  for (Operation *user : llvm::make_early_inc_range(view->getUsers())) {
    auto dim = dyn_cast<tensor::DimOp>(user);
    std::optional<int64_t> index = dim ? dim.getConstantIndex() : std::nullopt;
    if (!index)
      continue;
    rewriter.setInsertionPoint(dim);
    rewriter.replaceOp(dim, dimValue(rewriter, dim.getLoc(), source,
                                     toView.getDimPosition(*index)));
  }
}

/// Erases `op` if nothing reads it, then the ops that only it read (the
/// view's tensor.empty and the sizes of that).
void eraseIfDead(RewriterBase &rewriter, Operation *op) {
  if (!op || !op->use_empty() || !isa<linalg::GenericOp, tensor::EmptyOp, tensor::DimOp>(op))
    return;
  SmallVector<Operation *> defs;
  for (Value v : op->getOperands())
    defs.push_back(v.getDefiningOp());
  rewriter.eraseOp(op);
  for (Operation *def : defs)
    eraseIfDead(rewriter, def);
}

} // namespace

void populateStructuredToLinalg(RewritePatternSet &patterns) {
  patterns.add<MatmulToLinalg>(patterns.getContext());
}

void readTransposedMatmulOperands(Operation *root) {
  IRRewriter rewriter(root->getContext());
  SmallVector<linalg::LinalgOp> matmuls;
  root->walk([&](linalg::LinalgOp op) {
    if (getEagerOpName(op) == "matmul" && op.hasPureTensorSemantics())
      matmuls.push_back(op);
  });
  for (linalg::LinalgOp matmul : matmuls) {
    SmallVector<AffineMap> maps = matmul.getIndexingMapsArray();
    llvm::SetVector<Operation *> folded; // a view read as both operands: once
    for (OpOperand *input : matmul.getDpsInputOperands()) {
      auto view = input->get().getDefiningOp<linalg::GenericOp>();
      if (!view || !swapsLastTwoDims(view))
        continue; // an operand collapsed first (a stretched batch dim) too
      // The matmul read element M(i) of the view, which is element
      // P(M(i)) of the tensor underneath.
      unsigned n = input->getOperandNumber();
      maps[n] = view.getIndexingMapsArray()[0].compose(maps[n]);
      rewriter.modifyOpInPlace(matmul, [&] { input->set(view.getDpsInputs()[0]); });
      folded.insert(view);
    }
    if (folded.empty())
      continue;
    rewriter.modifyOpInPlace(matmul, [&] {
      matmul->setAttr("indexing_maps", rewriter.getAffineMapArrayAttr(maps));
    });
    // A view also returned or read by another op stays a copy (a kernel of
    // its own, as `.contiguous()` would be); the matmul still reads the
    // tensor underneath.
    for (Operation *view : folded) {
      readSizesUnderneath(rewriter, cast<linalg::GenericOp>(view));
      eraseIfDead(rewriter, view);
    }
  }
}

} // namespace kfuse::lowering
