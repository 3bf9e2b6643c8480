//===- KfPlantMutation.cpp - test only: a known bug in a fused kernel -----===//
//
// kf-plant-mutation (passes/Passes.td) gives the tests of kfuse-run --check
// bugs of the kinds fusion could make, in the fused version only
// (kfuse-compile --plant-mutation), so that they can show the check
// catches each one while the same program without it passes.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "dialect/Kf/KfOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineExpr.h"

namespace kfuse {
#define GEN_PASS_DEF_KFPLANTMUTATION
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;
using namespace kfuse;

namespace {

bool allParallel(linalg::GenericOp g) {
  return llvm::all_of(g.getIteratorTypesArray(), [](utils::IteratorType t) {
    return t == utils::IteratorType::parallel;
  });
}

/// An input read at d along a parallel dim of static size n >= 2 reads
/// (d + 1) mod n: every element its neighbour's value.
bool offByOne(linalg::GenericOp g) {
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  SmallVector<utils::IteratorType> iterators = g.getIteratorTypesArray();
  for (OpOperand *input : g.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (!type)
      continue;
    AffineMap &map = maps[input->getOperandNumber()];
    // The last dim first: rows keep their values, columns shift.
    for (int64_t r = int64_t(map.getNumResults()) - 1; r >= 0; --r) {
      auto dim = dyn_cast<AffineDimExpr>(map.getResult(r));
      int64_t n = type.getDimSize(r);
      if (!dim || ShapedType::isDynamic(n) || n < 2 ||
          iterators[dim.getPosition()] != utils::IteratorType::parallel)
        continue;
      map = map.replace(dim, (dim + 1) % n, map.getNumDims(), map.getNumSymbols());
      OpBuilder b(g);
      g.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
      return true;
    }
  }
  return false;
}

/// An elementwise float addf (not a reduction's accumulation: an add fused
/// into a reduction as its prologue is one) yields its first operand.
bool dropTerm(linalg::GenericOp g) {
  auto outputs = g.getRegionOutputArgs();
  for (auto add : g.getBody()->getOps<arith::AddFOp>()) {
    auto accumulates = [&](Value v) { return llvm::is_contained(outputs, v); };
    if (!allParallel(g) && (accumulates(add.getLhs()) || accumulates(add.getRhs())))
      continue;
    add.getResult().replaceAllUsesWith(add.getLhs());
    return true;
  }
  return false;
}

/// A float sum over a reduction dim rounds its running value to f16 after
/// every addition (as an f16 accumulator would).
bool f16Accumulator(linalg::GenericOp g) {
  if (allParallel(g))
    return false;
  Block *body = g.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  for (OpOperand &yielded : yield->getOpOperands()) {
    auto add = yielded.get().getDefiningOp<arith::AddFOp>();
    Value acc = g.getRegionOutputArgs()[yielded.getOperandNumber()];
    if (!add || !add.getType().isF32() || (add.getLhs() != acc && add.getRhs() != acc))
      continue;
    OpBuilder b(yield);
    Value narrow = arith::TruncFOp::create(b, add.getLoc(), b.getF16Type(), add);
    yielded.set(arith::ExtFOp::create(b, add.getLoc(), b.getF32Type(), narrow));
    return true;
  }
  return false;
}

struct KfPlantMutation : public kfuse::impl::KfPlantMutationBase<KfPlantMutation> {
  using Base::Base;
  void runOnOperation() override {
    bool (*plant)(linalg::GenericOp) = nullptr;
    if (kind == "off-by-one")
      plant = offByOne;
    else if (kind == "drop-term")
      plant = dropTerm;
    else if (kind == "f16-accumulator")
      plant = f16Accumulator;
    if (!plant) {
      getOperation().emitError("kf-plant-mutation: kind must be off-by-one, drop-term "
                               "or f16-accumulator, got '")
          << kind << "'";
      return signalPassFailure();
    }
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      bool planted = false;
      func.walk([&](kf::KernelOp kernel) {
        kernel.walk([&](linalg::GenericOp g) {
          if (!planted)
            planted = plant(g);
        });
        return planted ? WalkResult::interrupt() : WalkResult::advance();
      });
      if (!planted) {
        // A test must not pass because nothing was planted.
        func.emitError("kf-plant-mutation: no kernel of @")
            << func.getName() << " has a place for '" << kind << "'";
        return signalPassFailure();
      }
    }
  }
};

} // namespace
