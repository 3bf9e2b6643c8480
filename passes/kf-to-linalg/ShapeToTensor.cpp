//===- ShapeToTensor.cpp - ops that launch no kernel ----------------------===//
//
// reshape and constant move no data in eager PyTorch, so they lower to
// tensor ops that are no kernel (tensor.collapse_shape, tensor.expand_shape,
// arith.constant).
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfOps.h"
#include "passes/kf-to-linalg/Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace kfuse::kf;

namespace kfuse::lowering {
namespace {

/// Any reshape is a collapse to 1-D followed by an expand to the target;
/// the canonicalizer merges the pair where a single op will do.
struct ReshapeToTensor : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inType = cast<RankedTensorType>(input.getType());
    auto outType = op.getType();
    Type elt = inType.getElementType();

    // The product of the target's known sizes; with dynamic input dims, the
    // element count is checked against it at run time.
    int64_t known = 1;
    for (int64_t d : op.getShape())
      known *= d == -1 ? 1 : d;
    bool hasInferred = llvm::is_contained(op.getShape(), -1);
    Value numel, knownV;
    if (!inType.hasStaticShape()) {
      numel = arith::ConstantIndexOp::create(rewriter, loc, 1);
      for (int64_t i = 0; i < inType.getRank(); ++i)
        numel = arith::MulIOp::create(rewriter, loc, numel,
                                      dimValue(rewriter, loc, input, i));
      knownV = arith::ConstantIndexOp::create(rewriter, loc, known);
      Value ok;
      if (hasInferred) {
        Value rem = arith::RemUIOp::create(rewriter, loc, numel, knownV);
        Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
        ok = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, rem,
                                   zero);
      } else {
        ok = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                   numel, knownV);
      }
      cf::AssertOp::create(rewriter, loc, ok,
                           "kf.reshape: element count does not fit the shape");
    }

    // Collapse to 1-D (a 0-d tensor expands to 1-D).
    Value flat = input;
    auto flatType = RankedTensorType::get(
        {inType.hasStaticShape() ? inType.getNumElements() : ShapedType::kDynamic},
        elt);
    if (inType.getRank() == 0) {
      flat = tensor::ExpandShapeOp::create(rewriter, loc, flatType, input,
                                           ArrayRef<ReassociationIndices>{});
    } else if (inType.getRank() > 1) {
      ReassociationIndices all;
      for (int64_t i = 0; i < inType.getRank(); ++i)
        all.push_back(i);
      flat = tensor::CollapseShapeOp::create(rewriter, loc, flat,
                                             ArrayRef<ReassociationIndices>{all});
    }

    Value result;
    if (outType.getRank() == 0) {
      if (!flatType.hasStaticShape())
        flat = tensor::CastOp::create(rewriter, loc,
                                      RankedTensorType::get({1}, elt), flat);
      result = tensor::CollapseShapeOp::create(rewriter, loc, outType, flat,
                                               ArrayRef<ReassociationIndices>{});
    } else if (outType.getRank() == 1) {
      result = flat.getType() == outType
                   ? flat
                   : tensor::CastOp::create(rewriter, loc, outType, flat);
    } else {
      SmallVector<OpFoldResult> sizes;
      for (int64_t d : op.getShape()) {
        if (d != -1)
          sizes.push_back(rewriter.getIndexAttr(d));
        else if (inType.hasStaticShape())
          sizes.push_back(rewriter.getIndexAttr(inType.getNumElements() / known));
        else
          sizes.push_back(
              arith::DivUIOp::create(rewriter, loc, numel, knownV).getResult());
      }
      ReassociationIndices all;
      for (int64_t i = 0; i < outType.getRank(); ++i)
        all.push_back(i);
      // A dynamic input reshaped to a static shape: the assert above checked
      // the count, so the 1-D size can be made static.
      if (outType.hasStaticShape() &&
          !cast<RankedTensorType>(flat.getType()).hasStaticShape())
        flat = tensor::CastOp::create(
            rewriter, loc, RankedTensorType::get({known}, elt), flat);
      result = tensor::ExpandShapeOp::create(rewriter, loc, outType, flat,
                                             ArrayRef<ReassociationIndices>{all},
                                             sizes);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Splat constants of more elements than this are filled by a kernel.
constexpr int64_t kLargestSplatGlobal = 1 << 16;

struct ConstantToArith : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // A large splat stays a splat: an arith.constant of it would become a
    // global of every element (4 TiB for a tensor<2^40xf32>: LLVM aborts
    // "out of memory"). It is written by a kernel instead (torch.full's),
    // which fusion folds into its readers as an immediate.
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    if (splat && splat.getNumElements() > kLargestSplatGlobal) {
      Location loc = op.getLoc();
      auto type = cast<RankedTensorType>(splat.getType());
      Value scalar = arith::ConstantOp::create(rewriter, loc,
                                               splat.getSplatValue<TypedAttr>());
      Value init = emptyTensor(rewriter, loc, type, {});
      AffineMap id = rewriter.getMultiDimIdentityMap(type.getRank());
      auto fill = linalg::GenericOp::create(
          rewriter, loc, type, ValueRange(), init, id,
          SmallVector<utils::IteratorType>(type.getRank(), utils::IteratorType::parallel),
          [&](OpBuilder &b, Location l, ValueRange) {
            linalg::YieldOp::create(b, l, scalar);
          });
      tagKernel(fill, op);
      rewriter.replaceOp(op, fill.getResult(0));
      return success();
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, cast<TypedAttr>(op.getValue()));
    return success();
  }
};

} // namespace

void populateShapeToTensor(RewritePatternSet &patterns) {
  patterns.add<ReshapeToTensor, ConstantToArith>(patterns.getContext());
}

} // namespace kfuse::lowering
