//===- Attention.cpp - softmax(q @ k^T ...) @ v in linalg ops --------------===//
//
// One matcher for both uses (Attention.h): analyzeAttention checks a list
// of ops, which kernel formation builds with attentionEndingAt and the
// mappings get from a formed kernel, so the two can never disagree on
// what an attention kernel is.
//
//===----------------------------------------------------------------------===//
#include "passes/analysis/Attention.h"
#include "passes/analysis/AttentionMatch.h"

#include "passes/analysis/Views.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace kfuse::analysis {

using namespace attention;

namespace {

Value base(Value v) { return unitReshapeSource(v); }

} // namespace

/// kf-to-linalg writes a row's value read at every element as an expand to
/// [.., 1] and a collapse back.
Value unitReshapeSource(Value v) {
  auto shapeOf = [](Value x) { return cast<ShapedType>(x.getType()).getShape(); };
  Value at = v;
  for (Value src = at;;) {
    Operation *def = src.getDefiningOp();
    if (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                        memref::ExpandShapeOp, memref::CollapseShapeOp>(def))
      src = def->getOperand(0);
    else
      break;
    if (nonUnitDims(shapeOf(src)) != nonUnitDims(shapeOf(v)))
      break;
    if (shapeOf(src) == shapeOf(v))
      at = src;
  }
  return at;
}

namespace {

/// Whether the body applies `Op` to block arguments `args`, in order.
template <typename Op>
bool bodyIs(linalg::LinalgOp op, ArrayRef<unsigned> args) {
  Operation *only = soleOp(op);
  if (!only || !isa<Op>(only) || only->getNumOperands() != args.size())
    return false;
  Block &body = op->getRegion(0).front();
  for (auto [v, a] : llvm::zip(only->getOperands(), args))
    if (v != body.getArgument(a))
      return false;
  return true;
}

/// A reduction's combiner: `Op` of the element and the accumulator, either
/// order.
template <typename... Op>
bool combinerIs(linalg::LinalgOp op) {
  Operation *only = soleOp(op);
  if (!only || !isa<Op...>(only) || only->getNumOperands() != 2)
    return false;
  Block &body = op->getRegion(0).front();
  Value in = body.getArgument(0), acc = body.getArgument(1);
  return (only->getOperand(0) == in && only->getOperand(1) == acc) ||
         (only->getOperand(0) == acc && only->getOperand(1) == in);
}

/// A row reduction of `x` over its last dim, starting from a constant fill.
bool isRowReduction(linalg::LinalgOp op, Value x) {
  unsigned loops = op.getNumLoops();
  return isa<linalg::GenericOp>(op.getOperation()) && op.getNumDpsInputs() == 1 &&
         op.getNumDpsInits() == 1 && op.getNumReductionLoops() == 1 &&
         op.getIteratorTypesArray().back() == utils::IteratorType::reduction &&
         base(op.getDpsInputs()[0]) == x &&
         op.getMatchingIndexingMap(op.getDpsInputOperand(0)).isIdentity() &&
         op.getMatchingIndexingMap(op.getDpsInitOperand(0)) ==
             rowMap(loops, op.getContext());
}

/// The float constant a body value is: an arith.constant in the body or
/// outside it, or the block argument of a 0-d or splat constant input.
std::optional<APFloat> constantIn(linalg::LinalgOp op, Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != &op->getRegion(0).front() ||
        arg.getArgNumber() >= op.getNumDpsInputs())
      return std::nullopt;
    v = op.getDpsInputs()[arg.getArgNumber()];
  }
  Attribute value;
  if (!matchPattern(v, m_Constant(&value)))
    return std::nullopt;
  if (auto f = dyn_cast<FloatAttr>(value))
    return f.getValue();
  if (auto splat = dyn_cast<SplatElementsAttr>(value))
    if (isa<FloatType>(splat.getElementType()))
      return splat.getSplatValue<APFloat>();
  return std::nullopt;
}

/// Whether `map` reads, once its constant 0 results (unit dims) are
/// dropped, exactly the dims `dims` in order.
bool readsDims(AffineMap map, unsigned dims) {
  unsigned next = 0;
  for (AffineExpr r : map.getResults()) {
    if (auto c = dyn_cast<AffineConstantExpr>(r); c && c.getValue() == 0)
      continue;
    auto d = dyn_cast<AffineDimExpr>(r);
    if (!d || d.getPosition() != next++)
      return false;
  }
  return next == dims;
}

} // namespace

linalg::GenericOp AttentionParts::viewWriting(Value v) const {
  for (linalg::GenericOp view : views)
    if (produced(view) == base(v))
      return view;
  return {};
}

/// where(eq(max, -inf), 0, p): `where` reads p (its operand `operand`) at
/// its own element and, at the element's row, `eq`, an op of `ops` that
/// compares the softmax's max with -inf. Sets parts.safeEq and safeWhere.
static LogicalResult matchSafeSoftmax(ArrayRef<linalg::LinalgOp> ops, linalg::LinalgOp where,
                                      unsigned operand, AttentionParts &parts) {
  MLIRContext *ctx = where.getContext();
  unsigned loops = parts.batch + 2;
  auto whereOp = dyn_cast<linalg::GenericOp>(where.getOperation());
  if (!whereOp || !allParallel(where) || where.getNumLoops() != loops ||
      where.getNumDpsInits() != 1 ||
      where.getIndexingMapsArray()[operand] != AffineMap::getMultiDimIdentityMap(loops, ctx))
    return failure();
  Block &body = whereOp.getRegion().front();
  auto select = dyn_cast_or_null<arith::SelectOp>(soleOp(where));
  if (!select || select.getFalseValue() != body.getArgument(operand))
    return failure();
  std::optional<APFloat> zero = constantIn(where, select.getTrueValue());
  auto cond = dyn_cast<BlockArgument>(select.getCondition());
  if (!zero || !zero->isZero() || !cond || cond.getOwner() != &body ||
      cond.getArgNumber() >= where.getNumDpsInputs() ||
      !readsDims(where.getIndexingMapsArray()[cond.getArgNumber()], loops - 1))
    return failure();
  Value hidden = unitDimSource(where.getDpsInputs()[cond.getArgNumber()]);
  linalg::GenericOp eq;
  for (linalg::LinalgOp op : ops)
    if (unitDimSource(produced(op)) == hidden)
      eq = dyn_cast<linalg::GenericOp>(op.getOperation());
  auto cmp = eq ? dyn_cast_or_null<arith::CmpFOp>(soleOp(eq)) : nullptr;
  if (!eq || !allParallel(eq) || eq.getNumDpsInits() != 1 || !cmp ||
      cmp.getPredicate() != arith::CmpFPredicate::OEQ)
    return failure();
  // One side the max at the row's element, the other -inf.
  Block &eqBody = eq.getRegion().front();
  Value lowest = produced(parts.max);
  for (auto [a, b] : {std::pair{cmp.getLhs(), cmp.getRhs()}, std::pair{cmp.getRhs(), cmp.getLhs()}}) {
    auto arg = dyn_cast<BlockArgument>(a);
    std::optional<APFloat> c = constantIn(eq, b);
    if (!arg || arg.getOwner() != &eqBody || arg.getArgNumber() >= eq.getNumDpsInputs() ||
        !c || !c->isInfinity() || !c->isNegative())
      continue;
    OpOperand *in = eq.getDpsInputOperand(arg.getArgNumber());
    // Elementwise over the max (or the max with unit dims added).
    if (unitDimSource(in->get()) != unitDimSource(lowest) ||
        !eq.getMatchingIndexingMap(in).isIdentity() ||
        !eq.getMatchingIndexingMap(eq.getDpsInitOperand(0)).isIdentity())
      continue;
    parts.safeEq = eq;
    parts.safeWhere = whereOp;
    return success();
  }
  return failure();
}

LogicalResult analyzeAttention(ArrayRef<linalg::LinalgOp> ops,
                               function_ref<InFlightDiagnostic()> refuse,
                               AttentionParts &parts) {
  parts = AttentionParts();
  SmallVector<linalg::LinalgOp> contractions;
  for (linalg::LinalgOp op : ops)
    if (isContraction(op))
      contractions.push_back(op);
  if (contractions.size() != 2)
    return refuse() << "an attention holds two matmuls, this kernel " << contractions.size();
  // The ops reading `v` (through unit-dim reshapes).
  auto readers = [&](Value v) {
    SmallVector<std::pair<linalg::LinalgOp, unsigned>> found;
    for (linalg::LinalgOp op : ops)
      for (OpOperand *input : op.getDpsInputOperands())
        if (base(input->get()) == v)
          found.push_back({op, input->getOperandNumber()});
    return found;
  };
  auto fillOf = [&](linalg::LinalgOp op) -> linalg::FillOp {
    Value init = op.getDpsInits()[0];
    for (linalg::LinalgOp f : ops)
      if (auto fill = dyn_cast<linalg::FillOp>(f.getOperation()))
        if (produced(f) == init && fill.getInputs()[0].getDefiningOp<arith::ConstantOp>())
          return fill;
    return {};
  };
  // O = P @ V reads the softmax, computed in the kernel; S = Q @ K reads
  // the kernel's inputs, or copies of views of them.
  auto computedHere = [&](Value v) {
    for (linalg::LinalgOp op : ops)
      if (produced(op) == base(v))
        return !isCopy(op);
    return false;
  };
  bool firstIsPv = computedHere(contractions[0].getDpsInputs()[0]);
  parts.pv = firstIsPv ? contractions[0] : contractions[1];
  parts.qk = firstIsPv ? contractions[1] : contractions[0];
  if (computedHere(parts.qk.getDpsInputs()[0]) || computedHere(parts.qk.getDpsInputs()[1]))
    return refuse() << "the first matmul reads a value the kernel computes";
  parts.batch = parts.qk.getNumLoops() - 3;
  if (parts.pv.getNumLoops() != parts.qk.getNumLoops())
    return refuse() << "the two matmuls have different batch dims";
  MLIRContext *ctx = parts.qk.getContext();
  unsigned loops = parts.batch + 2; // of S's elementwise ops
  AffineMap identity = AffineMap::getMultiDimIdentityMap(loops, ctx);
  // Every value the pattern computes is f32, and so are q, k and v (a
  // score op may read a mask of another type; the safe softmax's max ==
  // -inf is a bool).
  auto notF32 = [](Value v) {
    auto shaped = dyn_cast<ShapedType>(v.getType());
    return shaped && !shaped.getElementType().isF32() && !shaped.getElementType().isInteger(1);
  };
  for (linalg::LinalgOp op : ops) {
    SmallVector<Value> checked(op.getDpsInits());
    if (isContraction(op))
      llvm::append_range(checked, op.getDpsInputs());
    for (Value v : checked)
      if (notF32(v))
        return refuse() << "attention is formed over f32 only, not "
                        << cast<ShapedType>(v.getType()).getElementType();
  }

  // S, then elementwise ops over it, each its previous value's one reader.
  Value x = produced(parts.qk);
  for (;;) {
    auto next = readers(x);
    if (next.size() != 1)
      break;
    auto [op, operand] = next.front();
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || !allParallel(op) || op.getNumLoops() != loops ||
        op.getNumDpsInits() != 1 || op.getIndexingMapsArray()[operand] != identity ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
      break; // (a copy at its own element is a score op too: a folded where)
    parts.scores.push_back(generic);
    x = produced(op);
  }
  // softmax(X): max and x - max read X; exp; sum and exp / sum read exp.
  auto xReaders = readers(x);
  for (auto [op, operand] : xReaders) {
    if (isRowReduction(op, x))
      parts.max = cast<linalg::GenericOp>(op.getOperation());
    else if (isa<linalg::GenericOp>(op.getOperation()) && operand == 0)
      parts.sub = cast<linalg::GenericOp>(op.getOperation());
  }
  if (xReaders.size() != 2 || !parts.max || !parts.sub ||
      !combinerIs<arith::MaximumFOp>(parts.max) || !(parts.maxFill = fillOf(parts.max)))
    return refuse() << "the scores are not read by a softmax's max";
  // x - max and exp / sum: an element and its row's value.
  auto elementAndRow = [&](linalg::GenericOp op, linalg::LinalgOp row) {
    return allParallel(op) && op.getNumDpsInputs() == 2 &&
           base(op.getDpsInputs()[1]) == produced(row) &&
           op.getIndexingMapsArray()[0] == identity &&
           op.getIndexingMapsArray()[1] == rowMap(loops, ctx);
  };
  if (!elementAndRow(parts.sub, parts.max) || !bodyIs<arith::SubFOp>(parts.sub, {0, 1}))
    return refuse() << "the scores are not read by a softmax's x - max";
  auto subReaders = readers(produced(parts.sub));
  if (subReaders.size() != 1 ||
      !(parts.exp = dyn_cast<linalg::GenericOp>(subReaders.front().first.getOperation())) ||
      !allParallel(parts.exp) || parts.exp.getNumDpsInputs() != 1 ||
      parts.exp.getIndexingMapsArray()[0] != identity || !bodyIs<math::ExpOp>(parts.exp, {0}))
    return refuse() << "x - max is not read by a softmax's exp";
  Value e = produced(parts.exp);
  for (auto [op, operand] : readers(e)) {
    if (isRowReduction(op, e))
      parts.sum = cast<linalg::GenericOp>(op.getOperation());
    else if (isa<linalg::GenericOp>(op.getOperation()) && operand == 0)
      parts.div = cast<linalg::GenericOp>(op.getOperation());
  }
  if (readers(e).size() != 2 || !parts.sum || !parts.div || !combinerIs<arith::AddFOp>(parts.sum) ||
      !(parts.sumFill = fillOf(parts.sum)))
    return refuse() << "the exponentials are not summed by a softmax";
  if (!elementAndRow(parts.div, parts.sum) || !bodyIs<arith::DivFOp>(parts.div, {0, 1}))
    return refuse() << "the exponentials are not divided by their sum";
  // PyTorch's safe softmax (F.scaled_dot_product_attention with a mask,
  // kfuse-import's handler): where(max == -inf, 0, p), a row masked whole
  // zeros instead of 0 / 0.
  Value p = produced(parts.div);
  if (auto safe = readers(p); safe.size() == 1 && safe.front().first != parts.pv) {
    if (failed(matchSafeSoftmax(ops, safe.front().first, safe.front().second, parts)))
      return refuse() << "the softmax is read by an op other than the second matmul";
    p = produced(parts.safeWhere);
  }
  // O = P @ V: P read as [batch..., m, k], the keys the contraction's k.
  auto pReaders = readers(p);
  SmallVector<AffineExpr> pRead;
  for (unsigned d = 0; d <= parts.batch; ++d)
    pRead.push_back(getAffineDimExpr(d, ctx));
  pRead.push_back(getAffineDimExpr(parts.batch + 2, ctx));
  if (pReaders.size() != 1 || pReaders.front().first != parts.pv ||
      pReaders.front().second != 0 ||
      parts.pv.getIndexingMapsArray()[0] != AffineMap::get(loops + 1, 0, pRead, ctx))
    return refuse() << "the softmax is not the first operand of the second matmul";
  if (!(parts.qkFill = fillOf(parts.qk)) || !(parts.pvFill = fillOf(parts.pv)))
    return refuse() << "a matmul does not start from a constant fill";
  // O itself, or its one permuting copy.
  auto oReaders = readers(produced(parts.pv));
  if (oReaders.size() == 1) {
    linalg::LinalgOp copy = oReaders.front().first;
    if (!isCopy(copy) || !copy.getMatchingIndexingMap(copy.getDpsInputOperand(0)).isPermutation())
      return refuse() << "the attention's result is read by an op other than a permuting copy";
    parts.output = cast<linalg::GenericOp>(copy.getOperation());
  } else if (!oReaders.empty()) {
    return refuse() << "the attention's result is read by several ops";
  }
  // What is left: copies of views that Q, K and V read, each read once.
  llvm::SmallPtrSet<Operation *, 16> known = {
      parts.qk,      parts.pv,     parts.qkFill, parts.pvFill, parts.maxFill, parts.sumFill,
      parts.max,     parts.sub,    parts.exp,    parts.sum,    parts.div};
  if (parts.output)
    known.insert(parts.output);
  if (parts.safeWhere)
    known.insert({parts.safeEq, parts.safeWhere});
  for (linalg::GenericOp g : parts.scores)
    known.insert(g);
  for (linalg::LinalgOp op : ops) {
    if (known.contains(op))
      continue;
    if (!isCopy(op))
      return refuse() << "it holds a " << op->getName().getStringRef()
                      << " that is not part of the attention";
    auto read = readers(produced(op));
    if (read.size() != 1)
      return refuse() << "a copy of a view is not read once";
    parts.views.push_back(cast<linalg::GenericOp>(op.getOperation()));
  }
  // Every view ends at Q, K or V.
  for (linalg::GenericOp view : parts.views) {
    auto isView = [&](Operation *op) {
      return llvm::any_of(parts.views, [&](linalg::GenericOp v) { return v == op; });
    };
    linalg::LinalgOp reader = readers(produced(view)).front().first;
    while (isView(reader))
      reader = readers(produced(reader)).front().first;
    if (reader != parts.qk && reader != parts.pv)
      return refuse() << "a copy of a view is read by an op other than a matmul";
  }
  // The host's kernel rebuilds the products and the score ops on vectors
  // of keys (gpu/attention/AttentionHost.cpp).
  if (!isMultiplyAdd(parts.qk) || !isMultiplyAdd(parts.pv))
    return refuse() << "a matmul's body is not a multiply-add";
  for (linalg::GenericOp g : parts.scores)
    if (!scalarArithmetic(g))
      return refuse() << "a score op's body is not arith and math ops on scalars";
  // The head dims live in registers.
  SmallVector<int64_t> qkLoops = parts.qk.getStaticLoopRanges();
  SmallVector<int64_t> pvLoops = parts.pv.getStaticLoopRanges();
  int64_t headDim = qkLoops.back(), valueDim = pvLoops[parts.batch + 1];
  if (ShapedType::isDynamic(headDim) || ShapedType::isDynamic(valueDim) || headDim < 1 ||
      valueDim < 1 || headDim + valueDim > kMaxAttentionHeadDims)
    return refuse() << "the head dims must be static and add up to at most "
                    << kMaxAttentionHeadDims << " (q and k: " << headDim << ", v: " << valueDim
                    << ")";
  return success();
}


} // namespace kfuse::analysis
