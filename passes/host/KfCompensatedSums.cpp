//===- KfCompensatedSums.cpp - float sums on buffers, compensated ---------===//
//
// Upstream's convert-linalg-to-loops folds a reduction as one running sum per
// output element, whose error grows with the number of terms. This pass
// gives every float-add reduction a second output, the sum's lost low part,
// and makes its body a compensated step (lowering/CompensatedSum.h), so
// that the loops upstream emits keep the error independent of n. It runs
// on buffers, just before the reductions become loops.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "passes/utils/CompensatedSum.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace kfuse {
#define GEN_PASS_DEF_KFCOMPENSATEDSUMS
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

/// The float add that folds a term into the reduction's output
/// (utils/CompensatedSum.h), on buffers, or null.
arith::AddFOp sumCombiner(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics())
    return nullptr;
  return kfuse::lowering::compensatedSumCombiner(op);
}

void compensate(linalg::GenericOp op, arith::AddFOp add) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value out = op.getDpsInits()[0];
  auto outType = cast<MemRefType>(out.getType());
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < outType.getRank(); ++i)
    if (outType.isDynamicDim(i))
      sizes.push_back(memref::DimOp::create(b, loc, out, i));
  Type elt = outType.getElementType();
  Value lost = memref::AllocOp::create(
      b, loc, MemRefType::get(outType.getShape(), elt), sizes);
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(elt, 0.0));
  linalg::FillOp::create(b, loc, zero, lost);

  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps.push_back(maps.back()); // the lost part sits beside its sum
  auto compensated = linalg::GenericOp::create(
      b, loc, TypeRange(), op.getDpsInputs(), ValueRange{out, lost}, maps,
      op.getIteratorTypesArray(),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Block &body = op.getRegion().front();
        IRMapping mapping;
        for (auto [from, to] : llvm::zip(body.getArguments(), args))
          mapping.map(from, to);
        for (Operation &inner : body.without_terminator())
          if (&inner != add.getOperation())
            nb.clone(inner, mapping);
        BlockArgument sum = body.getArguments().back();
        Value term = mapping.lookup(add.getLhs() == sum ? add.getRhs() : add.getLhs());
        auto [next, nextLost] = kfuse::lowering::compensatedAdd(
            nb, l, args[args.size() - 2], args.back(), term);
        linalg::YieldOp::create(nb, l, ValueRange{next, nextLost});
      });
  compensated->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  b.setInsertionPointAfter(compensated);
  memref::DeallocOp::create(b, loc, lost);
  op->erase();
}

struct KfCompensatedSumsPass
    : kfuse::impl::KfCompensatedSumsBase<KfCompensatedSumsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, arith::AddFOp>> sums;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (arith::AddFOp add = sumCombiner(op))
        sums.push_back({op, add});
    });
    for (auto [op, add] : sums)
      compensate(op, add);
  }
};

} // namespace
