//===- ReductionRules.cpp - error scales of reductions, softmax, matmul ----===//
//
// The rules of ErrorRules.h for ops that fold many elements into one (and
// views, which move them): reductions, softmax and log_softmax, argmax and
// argmin, matmul. Notation in ErrorRules.cpp.
//
//===----------------------------------------------------------------------===//
#include "passes/utils/ErrorRules.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kfuse;
using namespace kfuse::kf;
using namespace kfuse::detail;

/// softmax and log_softmax along `dim`. Both are invariant to a shift of
/// the row, so the bound of the max that shifts it cancels: with dx_j
/// within E_j and Em the row's largest E_j, softmax s_i moves by at most
/// s_i (1 - s_i) e^(2 Em) (E_i + Em) (s_i'/s_i - 1 is a sum over j != i of
/// s_j (e^dx_i - e^dx_j) over sum_j s_j e^dx_j >= e^-Em), which is small
/// for a one-hot row however large the scores; log_softmax moves by at
/// most E_i + Em. Their own error, relative (softmax) or absolute
/// (log_softmax): the shift's rounding u |x - max|, the exps' 16 u each,
/// the sum's u sqrt(n) (positive terms), the division or log's; f16 and
/// bf16 compute in f32, then round once.
Value Rules::softmax(int64_t dim) {
  OpBuilder &b = h.builder();
  Location loc = h.location();
  Value x = a(), ex = in.bounds[0];
  auto type = llvm::cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  DenseI64ArrayAttr dims = b.getDenseI64ArrayAttr({(dim + rank) % std::max<int64_t>(rank, 1)});
  // Rows of no elements: the result is empty, and kf.max has no value.
  if (rank > 0 && type.getDimSize(dims[0]) == 0)
    return h.zerosLike(v());
  bool isLog = isa<LogSoftmaxOp>(op);
  Value s = isLog ? h.unary<ExpOp>(v()) : v();
  Value prop;
  if (ex) {
    Value em = MaxOp::create(b, loc, h.f64(ex), dims, b.getUnitAttr());
    Value spread = h.add(ex, em);
    prop = isLog ? spread
                 : h.mul(h.mul(s, h.sub(h.constant(1), s)),
                         h.mul(h.unary<ExpOp>(h.scale(em, 2)), spread));
  }
  double uacc = in.resultType.isF64() ? u : std::ldexp(1.0, -24);
  Value shift = h.abs(h.sub(x, MaxOp::create(b, loc, x, dims, b.getUnitAttr())));
  shift = h.where(h.lt(shift, inf()), shift, h.constant(0)); // a -inf mask's
  Value roots = h.sqrt(h.count(x, dims.asArrayRef(), /*keepdim=*/true));
  Value rel = h.add(h.add(h.scale(shift, uacc), h.scale(roots, 2 * uacc)),
                    h.constant(40 * uacc));
  Value own = isLog ? h.add(rel, h.scale(finiteAbs(v()), uacc)) : h.mul(s, rel);
  if (!in.resultType.isF64() && !in.resultType.isF32()) // rounded once to f16/bf16
    own = h.add(own, scaledMagnitude(v(), u));
  return h.add(prop, own);
}

FailureOr<Value> Rules::reduction() {
  if (isa<MatmulOp>(op))
    return matmul();
  Value x = a(), ex = in.bounds[0];
  auto type = llvm::cast<RankedTensorType>(x.getType());
  OpBuilder &b = h.builder();
  Location loc = h.location();
  auto allDims = [&](SmallVector<int64_t> dims) {
    return b.getDenseI64ArrayAttr(dims);
  };
  // Sum or mean of n terms: sqrt(sum E_i^2) of the terms' scales, and of
  // the n roundings (u_acc |partial sum| each; f16 and bf16 accumulate in
  // f32) u_acc sqrt(n) (sqrt(sum x_i^2) + |sum x_i|): partial sums that
  // wander (terms of both signs) are within the first, partial sums that
  // grow (terms of one sign) within the second; a mean divides by n.
  auto sumLike = [&](DenseI64ArrayAttr dims, bool keepdim, bool isMean) -> Value {
    UnitAttr keep = keepdim ? b.getUnitAttr() : nullptr;
    auto sumOf = [&](Value t) -> Value { return SumOp::create(b, loc, t, dims, keep); };
    Value n = (isMean || u != 0) ? h.count(x, dims.asArrayRef(), keepdim) : nullptr;
    Value prop = ex ? h.sqrt(sumOf(h.mul(ex, ex))) : nullptr;
    Value accumulated;
    if (u != 0) {
      double uacc = in.resultType.isF64() ? u : std::ldexp(1.0, -24);
      Value magnitude = isMean ? h.mul(finiteAbs(v()), n) : finiteAbs(v());
      Value spread = h.add(h.sqrt(sumOf(h.mul(x, x))), magnitude);
      accumulated = h.scale(h.mul(h.sqrt(n), spread), uacc);
    }
    Value total = h.add(prop, accumulated);
    if (isMean && total)
      total = h.div(total, n);
    return h.add(total, rounding(isMean ? 2 : 1));
  };
  return TypeSwitch<Operation *, FailureOr<Value>>(op)
      .Case<SumOp>([&](SumOp s) {
        return sumLike(allDims(s.getReducedDims()), s.getKeepdim(), false);
      })
      .Case<MeanOp>([&](MeanOp s) {
        return sumLike(allDims(s.getReducedDims()), s.getKeepdim(), true);
      })
      .Case<MaxOp, MinOp>([&](auto s) -> Value {
        if (!ex)
          return nullptr;
        // v lies in [op(x - r), op(x + r)], r = kReach e: the farther end,
        // in scales again.
        using OpTy = std::decay_t<decltype(s)>;
        DenseI64ArrayAttr dims = allDims(s.getReducedDims());
        UnitAttr keep = s.getKeepdim() ? b.getUnitAttr() : nullptr;
        Value r = h.scale(ex, kReach);
        Value lo = OpTy::create(b, loc, h.sub(x, r), dims, keep);
        Value hi = OpTy::create(b, loc, h.add(x, r), dims, keep);
        return h.scale(h.max(h.sub(v(), lo), h.sub(hi, v())), 1 / kReach);
      })
      .Case<CumsumOp>([&](CumsumOp s) -> Value {
        // Element i sums the terms up to it: their scales as a sum's
        // (sqrt(sum E_k^2)), and the compensated running sum's own error,
        // 2 u_acc sum |x_k| (f16 and bf16 accumulate in f32), then the
        // rounding to the result's dtype.
        int64_t dim = s.getScannedDim();
        auto cumsum = [&](Value t) -> Value { return CumsumOp::create(b, loc, t, dim); };
        Value prop = ex ? h.sqrt(cumsum(h.mul(ex, ex))) : nullptr;
        Value own;
        if (u != 0) {
          double uacc = in.resultType.isF64() ? u : std::ldexp(1.0, -24);
          own = h.scale(cumsum(finiteAbs(h.f64(x))), 2 * uacc);
        }
        return h.add(h.add(prop, own), rounding(1));
      })
      .Case<SoftmaxOp, LogSoftmaxOp>([&](auto s) { return softmax(s.getDim()); })
      .Case<ArgmaxOp, ArgminOp>([&](auto s) -> Value {
        if (!ex)
          return nullptr;
        // Exact unless another element's interval reaches the extreme's.
        SmallVector<int64_t> dims;
        if (auto d = s.getDim())
          dims.push_back((int64_t(*d) + type.getRank()) % std::max<int64_t>(type.getRank(), 1));
        else
          for (int64_t i = 0; i < type.getRank(); ++i)
            dims.push_back(i);
        bool isMax = isa<ArgmaxOp>(op);
        Value r = h.scale(ex, kReach);
        Value reach = isMax ? Value(MaxOp::create(b, loc, h.sub(x, r), allDims(dims),
                                                 b.getUnitAttr()))
                            : Value(MinOp::create(b, loc, h.add(x, r), allDims(dims),
                                                 b.getUnitAttr()));
        Value candidate = isMax ? h.le(reach, h.add(x, r)) : h.le(h.sub(x, r), reach);
        Value count = SumOp::create(b, loc, h.f64(candidate), allDims(dims),
                                    s.getKeepdim() ? b.getUnitAttr() : nullptr);
        return h.where(h.lt(h.constant(1.5), count), inf(), h.constant(0));
      })
      .Default([&](Operation *) { return view(); });
}

FailureOr<Value> Rules::matmul() {
  OpBuilder &b = h.builder();
  Location loc = h.location();
  Value x = a(0), y = a(1), ex = e(0), ey = e(1);
  int64_t rankX = llvm::cast<RankedTensorType>(x.getType()).getRank();
  int64_t rankY = llvm::cast<RankedTensorType>(y.getType()).getRank();
  // Each result sums K products x_k y_k. Their scales |x_k| ey_k + ex_k
  // |y_k| + ex_k ey_k, and the K roundings of the sum (as a sum's, above),
  // add in quadrature over k; sqrt(sum_k p_k^2 q_k^2) is bounded by a row
  // norm of p times a column norm of q (the smaller of ||p||_2 ||q||_inf and
  // ||p||_inf ||q||_2), an outer product, so the reference computes no
  // matmul but the program's own.
  // Over a K that is 0, or may be at run time, there is no max (kf.max
  // refuses an empty dim): ||p||_inf <= ||p||_2 stands in, a looser bound.
  auto norms = [&](Value t, int64_t dim, Value &l2, Value &linf) {
    DenseI64ArrayAttr dims = b.getDenseI64ArrayAttr({dim});
    l2 = h.sqrt(SumOp::create(b, loc, h.mul(t, t), dims, b.getUnitAttr()));
    int64_t k = llvm::cast<RankedTensorType>(t.getType()).getDimSize(dim);
    linf = k > 0 ? Value(MaxOp::create(b, loc, h.abs(t), dims, b.getUnitAttr())) : l2;
  };
  struct Norms { Value l2, linf; };
  auto rows = [&](Value t) -> Norms {
    Norms n;
    if (t)
      norms(t, rankX - 1, n.l2, n.linf);
    return n;
  };
  auto columns = [&](Value t) -> Norms {
    Norms n;
    if (t)
      norms(t, rankY - 2, n.l2, n.linf);
    return n;
  };
  auto product = [&](const Norms &p, const Norms &q) -> Value {
    if (!p.l2 || !q.l2)
      return nullptr;
    return h.min(h.mul(p.l2, q.linf), h.mul(p.linf, q.l2));
  };
  Norms nx = rows(x), ny = columns(y), nex = rows(ex), ney = columns(ey);
  Value prop = h.add(h.add(product(nx, ney), product(nex, ny)), product(nex, ney));
  if (u == 0)
    return prop;
  double uacc = in.resultType.isF64() ? u : std::ldexp(1.0, -24);
  Value k = h.count(x, {rankX - 1}, /*keepdim=*/true);
  Value squares = product(nx, ny);
  Value spread = h.add(squares, finiteAbs(v()));
  Value accumulated = h.scale(h.mul(h.sqrt(k), spread), uacc);
  if (in.tf32 && in.resultType.isF32()) // inputs rounded to 10 bits
    accumulated = h.add(accumulated, h.scale(squares, std::ldexp(1.0, -10)));
  return h.add(h.add(prop, accumulated), rounding(1));
}

/// Views and copies: the bound moves as the value does.
FailureOr<Value> Rules::view() {
  bool gather = isa<IndexSelectOp, GatherOp>(op);
  if (!gather && !isa<ReshapeOp, TransposeOp, SliceOp, BroadcastToOp, ContiguousOp, CatOp,
                      tensor::CastOp>(op))
    return op->emitOpError("has no float64 reference rule"), failure();
  if (!in.bounds[0] && (gather || llvm::none_of(in.bounds, [](Value e) { return bool(e); })))
    return Value();
  // The operands first: they must be defined before the copy that reads them.
  // A gather reads its input's bound at the same indices (the index is
  // exact: an integer).
  SmallVector<Value> operands;
  for (unsigned i = 0; i < op->getNumOperands(); ++i)
    operands.push_back(gather && i == 1 ? a(i)
                       : in.bounds[i] ? h.f64(in.bounds[i]) : h.zerosLike(a(i)));
  Operation *copy = h.builder().clone(*op);
  copy->setOperands(operands);
  if (failed(retype(copy)))
    return failure();
  return copy->getResult(0);
}

