//===- AttentionEndingAt.cpp - the ops of an attention, in a function ------===//
//
// Kernel formation's question (fusion/MatmulGroups.cpp): which ops of a
// function, on tensors, are the attention that ends at a matmul. Walked
// back from its second matmul through the softmax and the score ops to the
// first, then the copies of views that q, k and v are and the head merge's
// copy; the list is then checked by the one matcher (analyzeAttention), and
// nothing outside may read a value of the pattern's own.
//
//===----------------------------------------------------------------------===//
#include "passes/analysis/AttentionMatch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace kfuse::analysis {

using namespace attention;

/// Whether `v` is a contraction's result, or an elementwise op's that
/// reads one at its own elements (a few ops deep).
static bool fromContraction(Value v, unsigned depth = 0) {
  auto def = v.getDefiningOp<linalg::LinalgOp>();
  if (!def || depth > 8)
    return false;
  if (isContraction(def))
    return true;
  if (!allParallel(def) || isCopy(def))
    return false;
  return llvm::any_of(def.getDpsInputOperands(), [&](OpOperand *input) {
    return def.getMatchingIndexingMap(input).isIdentity() &&
           fromContraction(unitReshapeSource(input->get()), depth + 1);
  });
}

SmallVector<Operation *> attentionEndingAt(linalg::LinalgOp pv, std::string *refusal) {
  if (!pv.hasPureTensorSemantics() || !isContraction(pv))
    return {};
  llvm::SetVector<Operation *> ops;
  auto producer = [](Value v) -> linalg::LinalgOp {
    return unitReshapeSource(v).getDefiningOp<linalg::LinalgOp>();
  };
  auto fillOf = [](linalg::LinalgOp op) {
    return op.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  };
  ops.insert(pv);
  linalg::LinalgOp div = producer(pv.getDpsInputs()[0]);
  if (div && !isa_and_nonnull<arith::DivFOp>(soleOp(div))) {
    // PyTorch's safe softmax: where(eq, 0, p) reads p, computed by the
    // division, and eq, computed from the max (matchSafeSoftmax checks).
    linalg::LinalgOp where = div, p, eq;
    div = {};
    for (Value in : where.getDpsInputs()) {
      linalg::LinalgOp op = unitDimSource(in).getDefiningOp<linalg::LinalgOp>();
      if (!op)
        continue;
      if (isa_and_nonnull<arith::DivFOp>(soleOp(op)))
        p = op;
      else
        eq = op;
    }
    if (!p || !eq)
      return {};
    ops.insert(where);
    ops.insert(eq);
    div = p;
  }
  if (!div || div.getNumDpsInputs() != 2)
    return {};
  linalg::LinalgOp exp = producer(div.getDpsInputs()[0]);
  linalg::LinalgOp sum = producer(div.getDpsInputs()[1]);
  if (!exp || !sum || exp.getNumDpsInputs() != 1 || sum.getNumDpsInputs() != 1)
    return {};
  linalg::LinalgOp sub = producer(exp.getDpsInputs()[0]);
  if (!sub || sub.getNumDpsInputs() != 2)
    return {};
  linalg::LinalgOp max = producer(sub.getDpsInputs()[1]);
  if (!max || max.getNumDpsInputs() != 1)
    return {};
  for (Operation *op : {div.getOperation(), exp.getOperation(), sum.getOperation(),
                        sub.getOperation(), max.getOperation()})
    ops.insert(op);
  // Back from X through elementwise ops to S.
  Value x = unitReshapeSource(sub.getDpsInputs()[0]);
  linalg::LinalgOp qk;
  for (unsigned steps = 0; steps < 64; ++steps) {
    linalg::LinalgOp def = x.getDefiningOp<linalg::LinalgOp>();
    if (!def)
      return {};
    if (isContraction(def)) {
      qk = def;
      break;
    }
    if (!allParallel(def) || isCopy(def))
      return {};
    ops.insert(def);
    // The operand it reads at its own element that elementwise ops compute
    // from a matmul (another such operand, T5's position bias added to the
    // scores, is an input of the kernel).
    Value previous;
    for (OpOperand *input : def.getDpsInputOperands()) {
      if (!def.getMatchingIndexingMap(input).isIdentity() ||
          !fromContraction(unitReshapeSource(input->get())))
        continue;
      if (previous)
        return {}; // two candidates: not a chain
      previous = unitReshapeSource(input->get());
    }
    if (!previous)
      return {};
    x = previous;
  }
  if (!qk)
    return {};
  ops.insert(qk);
  for (linalg::LinalgOp op : {qk, max, sum, pv})
    if (linalg::FillOp fill = fillOf(op))
      ops.insert(fill);
  // Views Q, K and V are, each read by that one op.
  for (Value operand : {qk.getDpsInputs()[0], qk.getDpsInputs()[1], pv.getDpsInputs()[1]}) {
    for (Value v = unitReshapeSource(operand);;) {
      linalg::LinalgOp copy = v.getDefiningOp<linalg::LinalgOp>();
      if (!copy || !isCopy(copy) || !v.hasOneUse())
        break;
      ops.insert(copy);
      v = unitReshapeSource(copy.getDpsInputs()[0]);
    }
  }
  // O's permuting copy (a head merge), when that is O's one reader.
  Operation *result = pv;
  Value o = pv->getResult(0);
  if (o.hasOneUse())
    if (auto copy = dyn_cast<linalg::LinalgOp>(*o.getUsers().begin()))
      if (isCopy(copy) &&
          copy.getMatchingIndexingMap(copy.getDpsInputOperand(0)).isPermutation()) {
        ops.insert(copy);
        result = copy;
      }
  // Nothing outside reads a value of the pattern's own (through reshapes).
  for (Operation *op : ops) {
    if (op == result)
      continue;
    SmallVector<Value> work(op->getResults());
    while (!work.empty()) {
      Value v = work.pop_back_val();
      for (Operation *user : v.getUsers()) {
        if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user)) {
          work.append(user->result_begin(), user->result_end());
          continue;
        }
        if (!ops.contains(user)) {
          if (refusal)
            *refusal = "an op outside reads the scores or the softmax's values (they "
                       "would have to be written)";
          return {};
        }
      }
    }
  }
  SmallVector<Operation *> ordered(ops.begin(), ops.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  SmallVector<linalg::LinalgOp> linalgOps;
  for (Operation *op : ordered)
    linalgOps.push_back(cast<linalg::LinalgOp>(op));
  AttentionParts parts;
  // The matcher's reason, caught as it is emitted (the caller's remark).
  ScopedDiagnosticHandler capture(pv.getContext(), [&](Diagnostic &d) {
    if (refusal && refusal->empty())
      *refusal = d.str();
    return success();
  });
  if (failed(analyzeAttention(linalgOps, [&] { return emitError(pv.getLoc()); }, parts)))
    return {};
  return ordered;
}

} // namespace kfuse::analysis
