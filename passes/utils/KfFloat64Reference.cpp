//===- KfFloat64Reference.cpp - the program in float64, with its error bound ===//
//
// kf-float64-reference (passes/Passes.td): f16, bf16 and f32 tensors become
// f64 in place, op by op in program order (each op's result types inferred
// again from its promoted operands), and each op's error bound is built
// right after it (ErrorRules.cpp). kfuse-compile --float64-reference builds
// the library that kfuse-run --check runs as its reference.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "passes/utils/Float64Reference.h"

#include "dialect/Kf/KfDialect.h"
#include "dialect/Kf/KfOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kfuse {
#define GEN_PASS_DEF_KFFLOAT64REFERENCE
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;
using namespace kfuse;
using namespace kfuse::kf;

namespace {

Type elementOf(Value x) { return cast<RankedTensorType>(x.getType()).getElementType(); }

bool isNarrowFloat(Type t) { return isa<FloatType>(t) && !t.isF64(); }

/// `type` with an f16, bf16 or f32 element type made f64.
Type promoted(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !isNarrowFloat(tensor.getElementType()))
    return type;
  return tensor.clone(Float64Type::get(type.getContext()));
}

/// Only straight-line kf programs have a reference: every op a kf op (but
/// a hand-written kernel) or a tensor.cast (kf-decompose makes those).
LogicalResult checkSupported(func::FuncOp func) {
  if (!func.getBody().hasOneBlock())
    return func.emitError("kf-float64-reference: the body of @")
           << func.getName() << " has several blocks: only straight-line kf "
           << "programs have a float64 reference";
  WalkResult walk = func.getBody().walk<WalkOrder::PreOrder>([](Operation *op) {
    Dialect *dialect = op->getDialect();
    bool kfOp = dialect && dialect->getNamespace() == KfDialect::getDialectNamespace() &&
                !isa<KernelOp, YieldOp>(op);
    if (kfOp || isa<func::ReturnOp, tensor::CastOp>(op))
      return WalkResult::advance();
    op->emitError("kf-float64-reference: '")
        << op->getName() << "' has no float64 reference: only straight-line "
        << "programs of kf ops do (no hand-written kernels, calls or control flow)";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

/// Writes out the composites but softmax, log_softmax, argmax and argmin,
/// whose bounds need the whole op (ErrorRules.cpp: the shift by the max
/// cancels, and a max or argmax of x - e and x + e would lose that).
LogicalResult decompose(func::FuncOp func) {
  SmallVector<Operation *> composites;
  func.walk([&](Operation *op) {
    if (isa<LayerNormOp, VarOp, StdOp, RmsNormOp, BatchNormOp>(op))
      composites.push_back(op);
  });
  if (composites.empty())
    return success();
  RewritePatternSet patterns(func.getContext());
  populateKfDecomposePatterns(patterns);
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingOps);
  return applyOpPatternsGreedily(composites, std::move(patterns), config);
}

/// A float constant's value (exactly) as f64.
LogicalResult promoteConstant(ConstantOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  if (!isNarrowFloat(type.getElementType()))
    return success();
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense)
    return op.emitOpError("kf-float64-reference: a constant that is not dense "
                          "elements has no float64 reference");
  Type f64 = Float64Type::get(op.getContext());
  auto widened = dense.mapValues(f64, [](const APFloat &value) {
    APFloat wide = value;
    bool lost = false;
    wide.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
    return wide.bitcastToAPInt();
  });
  op.setValueAttr(widened);
  op.getResult().setType(type.clone(f64));
  return success();
}

struct Promotion {
  func::FuncOp func;
  bool bounds, tf32;
  DenseMap<Value, Type> original; // each value's dtype before promotion
  DenseMap<Value, Value> bound;   // each value's error bound (absent: 0)

  /// Promotes `op` in place; returns the value its bound is for.
  FailureOr<Value> promote(Operation *op) {
    if (auto c = dyn_cast<ConstantOp>(op)) {
      if (failed(promoteConstant(c)))
        return failure();
      return c.getResult();
    }
    if (failed(retype(op)))
      return failure();
    Value result = op->getResult(0);
    OpBuilder b(op->getContext());
    if (auto c = dyn_cast<CastOp>(op)) {
      // The cast rounds as the program asks, then widens back.
      if (!isNarrowFloat(c.getDtype()))
        return result;
      b.setInsertionPointAfter(op);
      Value wide = CastOp::create(b, op->getLoc(), result, TypeAttr::get(b.getF64Type()));
      result.replaceAllUsesExcept(wide, wide.getDefiningOp());
      return wide;
    }
    // An op that makes floats of integers (exp of an int, div of ints, a
    // float clamp of an int) would compute in f32: its integer operands
    // become f64 first.
    if (!isNarrowFloat(elementOf(result)))
      return result;
    b.setInsertionPoint(op);
    for (OpOperand &operand : op->getOpOperands())
      if (!isa<FloatType>(elementOf(operand.get())) &&
          !(isa<WhereOp>(op) && operand.getOperandNumber() == 0))
        operand.set(CastOp::create(b, op->getLoc(), operand.get(),
                                   TypeAttr::get(b.getF64Type())));
    if (failed(retype(op)))
      return failure();
    if (isNarrowFloat(elementOf(result)))
      return op->emitOpError("kf-float64-reference: still computes in ")
             << elementOf(result) << " once its operands are f64";
    return result;
  }

  LogicalResult run() {
    Block &body = func.getBody().front();
    for (BlockArgument arg : body.getArguments()) {
      original[arg] = elementOf(arg);
      arg.setType(promoted(arg.getType()));
    }
    SmallVector<Operation *> ops;
    for (Operation &op : body.without_terminator())
      ops.push_back(&op);
    for (Operation *op : ops) {
      SmallVector<Value> operandBounds;
      SmallVector<Type> operandTypes;
      for (Value operand : op->getOperands()) {
        operandBounds.push_back(bound.lookup(operand));
        operandTypes.push_back(original.lookup(operand));
      }
      Type resultType = elementOf(op->getResult(0));
      FailureOr<Value> value = promote(op);
      if (failed(value))
        return failure();
      // Later ops read *value (a narrowing cast's widened result).
      original[*value] = resultType;
      if (!bounds || isa<ConstantOp>(op))
        continue;
      OpBuilder b(op->getContext());
      b.setInsertionPointAfterValue(*value);
      BoundBuilder h(b, op->getLoc());
      FailureOr<Value> e = errorBound(
          h, op, OpBounds{*value, operandBounds, operandTypes, resultType, tf32});
      if (failed(e))
        return failure();
      if (*e)
        bound[*value] = *e;
    }
    // The values, then (with bounds) one f64 bound a value.
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    SmallVector<Value> results(ret.getOperands());
    if (bounds) {
      OpBuilder b(ret);
      BoundBuilder h(b, ret.getLoc());
      for (Value v : ret.getOperands()) {
        Value e = bound.lookup(v);
        results.push_back(e ? h.f64(e) : h.zerosLike(v));
      }
    }
    ret->setOperands(results);
    if (bounds)
      func.removeResAttrsAttr(); // one per value: the bounds have none
    func.setType(FunctionType::get(func.getContext(), body.getArgumentTypes(),
                                   TypeRange(ValueRange(results))));
    return success();
  }
};

struct KfFloat64Reference
    : public kfuse::impl::KfFloat64ReferenceBase<KfFloat64Reference> {
  using Base::Base;
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (failed(checkSupported(func)) || failed(decompose(func)) ||
          failed(Promotion{func, bounds, tf32}.run()))
        return signalPassFailure();
    }
  }
};

} // namespace
