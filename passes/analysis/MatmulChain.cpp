//===- MatmulChain.cpp - matmuls summed, a @ b + c @ d --------------------===//
#include "passes/analysis/MatmulChain.h"

#include "dialect/Kf/KfAttrs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace kfuse::analysis {

namespace {

/// The one op that reads `v` for its elements (a tensor.dim reads only its
/// size, which kernel formation answers from the shapes), or null.
Operation *soleReader(Value v) {
  Operation *reader = nullptr;
  for (Operation *user : v.getUsers()) {
    if (isa<tensor::DimOp>(user))
      continue;
    if (reader)
      return nullptr;
    reader = user;
  }
  return reader;
}

} // namespace

bool isSumOfTwo(Operation *op) {
  auto g = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!g || g.getNumDpsInputs() != 2 || g.getNumDpsInits() != 1 ||
      g.getNumReductionLoops() != 0 ||
      !llvm::all_of(g.getIndexingMapsArray(), [](AffineMap m) { return m.isIdentity(); }))
    return false;
  Block &body = g.getRegion().front();
  if (body.getOperations().size() != 2)
    return false;
  Operation &add = body.front();
  if (!isa<arith::AddFOp, arith::AddIOp>(add) ||
      body.getTerminator()->getOperand(0) != add.getResult(0))
    return false;
  Value x = add.getOperand(0), y = add.getOperand(1);
  Value in0 = body.getArgument(0), in1 = body.getArgument(1);
  return (x == in0 && y == in1) || (x == in1 && y == in0);
}

bool isChainSum(Operation *op) {
  if (!isSumOfTwo(op))
    return false;
  return llvm::all_of(op->getOperands().take_front(2), [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != op->getBlock())
      return false;
    // A matmul (kf-to-linalg's: linalg.matmul, or a batched one's
    // generic, tagged with its eager op), or a sum of them.
    if (isa<linalg::MatmulOp>(def) || kf::getEagerOpName(def) == "matmul")
      return true;
    return isChainSum(def);
  });
}

Value matmulValue(linalg::LinalgOp matmul) {
  Value result = matmul->getResult(0);
  Operation *reader = soleReader(result);
  if (reader && kf::isFinisher(reader))
    return reader->getResult(0);
  return result;
}

Operation *matchMatmulChain(ArrayRef<linalg::LinalgOp> matmuls,
                            function_ref<bool(Operation *)> inside, std::string *why) {
  auto fail = [&](const char *reason) -> Operation * {
    if (why)
      *why = reason;
    return nullptr;
  };
  if (matmuls.size() < 2)
    return fail("fewer than two matmuls");
  linalg::LinalgOp first = matmuls.front();
  auto typeOf = [](Value v) { return getElementTypeOrSelf(v.getType()); };
  // The values that feed sums: the products, then the sums that are read
  // by another sum.
  llvm::SetVector<Value> leaves;
  for (auto [i, constM] : llvm::enumerate(matmuls)) {
    linalg::LinalgOp m = constM;
    if (!m.hasPureTensorSemantics() || m->getNumResults() != 1 ||
        m->getResult(0).getType() != first->getResult(0).getType() ||
        m.getNumDpsInputs() != 2 ||
        typeOf(m.getDpsInputs()[0]) != typeOf(first.getDpsInputs()[0]) ||
        typeOf(m.getDpsInputs()[1]) != typeOf(first.getDpsInputs()[1]))
      return fail("the matmuls differ in result type or operand element types");
    auto fill = m.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
    Value start = fill ? fill.getInputs()[0] : Value();
    if (!start || !matchPattern(start, m_Constant()))
      return fail("a matmul does not start from a constant fill");
    // The one accumulator starts from the first fill; the others add 0.
    if (i > 0 && !matchPattern(start, m_AnyZeroFloat()) && !matchPattern(start, m_Zero()))
      return fail("a later matmul starts from a nonzero fill");
    // PyTorch rounds an f16 or bf16 product before the sum (kf-to-linalg's
    // finisher); one accumulator would round the sum once, an ulp away.
    if (matmulValue(m) != m->getResult(0))
      return fail("its products are rounded (f16, bf16) before they are summed");
    leaves.insert(matmulValue(m));
  }
  if (leaves.size() != matmuls.size())
    return fail("a matmul is read twice");
  // Walk from the products up the sums: each value is read once, by a sum
  // inside; a sum whose result is not so read is the last (one of them).
  Operation *root = nullptr;
  llvm::SetVector<Operation *> sums;
  for (unsigned i = 0; i < leaves.size(); ++i) {
    Value v = leaves[i];
    Operation *reader = soleReader(v);
    if (!reader || !isSumOfTwo(reader) || !inside(reader)) {
      if (i < matmuls.size())
        return fail("a matmul's value is read by something other than one sum");
      if (root && root != v.getDefiningOp())
        return fail("the sums do not end in one");
      root = v.getDefiningOp();
      continue;
    }
    if (sums.insert(reader))
      leaves.insert(reader->getResult(0));
  }
  // Each sum adds two of the chain's values (not a bias: that is the
  // epilogue's, after the last sum).
  for (Operation *sum : sums)
    for (Value operand : sum->getOperands().take_front(2))
      if (!leaves.contains(operand))
        return fail("a sum adds a value that is not a matmul's or another sum's");
  return root;
}

} // namespace kfuse::analysis
