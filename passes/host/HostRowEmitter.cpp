//===- HostRowEmitter.cpp - vector passes over a row on a CPU core --------===//
#include "passes/host/HostRowEmitter.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <functional>

using namespace mlir;
using namespace kfuse::host::rows;
using kfuse::gpu::rows::isReduction;

SmallVector<Pass> kfuse::host::rows::passesOf(ArrayRef<linalg::LinalgOp> ops,
                                              const Layout &layout) {
  SmallVector<Pass> out;
  Pass cur;
  auto flush = [&] {
    if (!cur.elementwise.empty() || cur.reduction || cur.rowOp)
      out.push_back(cur);
    cur = Pass();
  };
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic)
      continue; // fills: each reduction starts from its identity
    if (isReduction(op)) {
      cur.reduction = generic;
      flush();
    } else if (layout.isRowOp(generic)) {
      flush();
      cur.rowOp = generic;
      flush();
    } else {
      cur.elementwise.push_back(generic);
    }
  }
  flush();
  return out;
}

/// Math ops whose vector form lowers to vector instructions or to libm
/// called a lane at a time (convert-math-to-llvm, -to-libm; tanh and expm1
/// through kf-host-math); others (ipowi, fpowi: math-to-funcs) keep the
/// scalar emitter.
static bool isVectorMath(Operation *op) {
  return isa<math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp, math::Log2Op, math::Log10Op,
             math::Log1pOp, math::SqrtOp, math::RsqrtOp, math::AbsFOp, math::AbsIOp,
             math::TanhOp, math::ErfOp, math::FloorOp, math::CeilOp, math::RoundOp,
             math::RoundEvenOp, math::TruncOp, math::FmaOp, math::PowFOp,
             math::CopySignOp, math::SinOp, math::CosOp>(op);
}

static bool isLaneType(Type t) {
  return t.isIndex() || (t.isIntOrFloat() && t.getIntOrFloatBitWidth() >= 8);
}

bool kfuse::host::rows::isVectorizable(ArrayRef<linalg::LinalgOp> ops, const Layout &layout,
                                       std::string *why) {
  auto no = [&](const char *reason) {
    if (why)
      *why = reason;
    return false;
  };
  if (layout.cols != 1 || layout.isRowDim.empty() || layout.isRowDim.back())
    return no("its columns are not one innermost loop");
  unsigned colDim = layout.isRowDim.size() - 1;
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic) {
      if (isa<linalg::FillOp>(op.getOperation()))
        continue;
      return no("it holds an op other than generics and fills");
    }
    if (!isReduction(op) && layout.isRowOp(generic))
      continue; // scalar code, once a row
    if (generic.getNumLoops() != layout.isRowDim.size())
      return no("an op is not over rows and columns");
    Block &body = generic.getRegion().front();
    for (OpOperand &operand : generic->getOpOperands()) {
      auto type = dyn_cast<MemRefType>(operand.get().getType());
      if (!type || !isLaneType(type.getElementType()))
        return no("an operand is no memref of bytes-wide elements");
      bool isInit = generic.isDpsInit(&operand);
      if (isInit && isReduction(op))
        continue; // the row's value, stored once
      if (isInit && !body.getArgument(operand.getOperandNumber()).use_empty())
        return no("an elementwise op reads its output");
      AffineMap map = generic.getMatchingIndexingMap(&operand);
      if (!map.isFunctionOfDim(colDim))
        continue; // a value of the row
      auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
      if (!last || last.getPosition() != colDim ||
          llvm::any_of(map.getResults().drop_back(),
                       [&](AffineExpr e) { return e.isFunctionOfDim(colDim); }))
        return no("an access along the columns is not the last index");
      SmallVector<int64_t> strides;
      int64_t offset;
      if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
        return no("an access along the columns is not unit-stride");
    }
    for (Operation &inner : body.without_terminator()) {
      if (isa<linalg::IndexOp, arith::ConstantOp>(inner))
        continue;
      bool known = (inner.getDialect()->getNamespace() == "arith" &&
                    inner.hasTrait<OpTrait::Vectorizable>()) ||
                   isVectorMath(&inner);
      if (!known || inner.getNumResults() != 1 || inner.getNumRegions() != 0)
        return no("a body op has no vector form here");
      for (Type t : llvm::concat<const Type>(inner.getOperandTypes(), inner.getResultTypes()))
        if (!t.isIntOrIndexOrFloat())
          return no("a body op works on other than scalars");
    }
  }
  return true;
}

/// A splat constant of `type` (a vector of floats or integers).
static Value splat(OpBuilder &b, Location loc, VectorType type, double f) {
  Type e = type.getElementType();
  TypedAttr attr = isa<FloatType>(e) ? TypedAttr(b.getFloatAttr(e, f))
                                     : TypedAttr(b.getIntegerAttr(e, (int64_t)f));
  return arith::ConstantOp::create(b, loc, SplatElementsAttr::get(type, attr));
}

Value kfuse::host::rows::vectorExpF32(OpBuilder &b, Location loc, Value x) {
  auto ft = cast<VectorType>(x.getType());
  auto it = VectorType::get(ft.getShape(), b.getI32Type());
  auto c = [&](double v) { return splat(b, loc, ft, v); };
  auto ci = [&](int64_t v) { return splat(b, loc, it, (double)v); };
  auto fma = [&](Value a, Value m, Value s) { return math::FmaOp::create(b, loc, a, m, s); };
  // Below -104 the result is 0 and above 89 inf, in float; clamping keeps
  // 2^n in range. maxnumf/minnumf are single instructions; NaN is put
  // back at the end.
  Value xc = arith::MinNumFOp::create(b, loc, arith::MaxNumFOp::create(b, loc, x, c(-104.0)),
                                      c(89.0));
  Value n = math::RoundEvenOp::create(
      b, loc, arith::MulFOp::create(b, loc, xc, c(1.44269504088896341)));
  // r = x - n ln 2, ln 2 in two parts (Cephes' C1 + C2), exact for |n| < 2^9.
  Value r = fma(n, c(-0.693359375), xc);
  r = fma(n, c(2.12194440e-4), r);
  Value p = c(1.9875691500E-4);
  for (double k : {1.3981999507E-3, 8.3334519073E-3, 4.1665795894E-2, 1.6666665459E-1,
                   5.0000001201E-1})
    p = fma(p, r, c(k));
  Value y = arith::AddFOp::create(
      b, loc, fma(p, arith::MulFOp::create(b, loc, r, r), r), c(1.0));
  // 2^n as 2^(n/2) 2^(n - n/2): each half is a normal float for n in
  // [-150, 128], so the products round once, where the result does.
  Value ni = arith::FPToSIOp::create(b, loc, it, n);
  Value n1 = arith::ShRSIOp::create(b, loc, ni, ci(1));
  Value n2 = arith::SubIOp::create(b, loc, ni, n1);
  auto pow2 = [&](Value k) {
    Value bits = arith::ShLIOp::create(b, loc, arith::AddIOp::create(b, loc, k, ci(127)), ci(23));
    return arith::BitcastOp::create(b, loc, ft, bits);
  };
  Value e = arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, y, pow2(n1)), pow2(n2));
  Value isNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  return arith::SelectOp::create(b, loc, isNan, x, e);
}

SmallVector<Value> HostRowEmitter::ivs(Value c) {
  SmallVector<Value> out(rowIvs.begin(), rowIvs.end());
  out.push_back(c);
  return out;
}

Value HostRowEmitter::broadcast(Value v) {
  if (isa<VectorType>(v.getType()))
    return v;
  return vector::BroadcastOp::create(b, loc, vectorOf(v.getType()), v);
}

SmallVector<Value> HostRowEmitter::vectorizeBody(linalg::GenericOp op, IRMapping &m, Value c) {
  Block &body = op.getRegion().front();
  Operation *skip = isReduction(op) ? gpu::combinerOf(op) : nullptr;
  unsigned colDim = layout.isRowDim.size() - 1;
  for (Operation &inner : body.without_terminator()) {
    if (&inner == skip)
      continue;
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      Value v = ivs(c)[index.getDim()];
      if (index.getDim() == colDim)
        v = arith::AddIOp::create(b, loc, broadcast(v),
                                  vector::StepOp::create(b, loc, vectorOf(b.getIndexType())));
      m.map(index.getResult(), v);
      continue;
    }
    SmallVector<Value> operands;
    for (Value v : inner.getOperands())
      operands.push_back(m.lookupOrDefault(v));
    if (llvm::none_of(operands, [](Value v) { return isa<VectorType>(v.getType()); })) {
      b.clone(inner, m); // the same in every lane (a constant, a row value)
      continue;
    }
    for (Value &v : operands)
      v = broadcast(v);
    Type resultType = inner.getResult(0).getType();
    Value result;
    if (isa<math::ExpOp>(inner) && isa<FloatType>(resultType) &&
        resultType.getIntOrFloatBitWidth() <= 32) {
      // f16/bf16 through f32: one rounding more, below their ulp.
      Value x = operands[0];
      if (!resultType.isF32())
        x = arith::ExtFOp::create(b, loc, vectorOf(b.getF32Type()), x);
      result = vectorExpF32(b, loc, x);
      if (!resultType.isF32())
        result = arith::TruncFOp::create(b, loc, vectorOf(resultType), result);
    } else {
      OperationState state(loc, inner.getName());
      state.addOperands(operands);
      state.addTypes(vectorOf(resultType));
      state.addAttributes(inner.getAttrs());
      result = b.create(state)->getResult(0);
    }
    m.map(inner.getResult(0), result);
  }
  SmallVector<Value> out;
  for (Value v : cast<linalg::YieldOp>(body.getTerminator()).getValues())
    out.push_back(m.lookupOrDefault(v));
  return out;
}

SmallVector<linalg::GenericOp> HostRowEmitter::recomputedFor(ArrayRef<linalg::GenericOp> ops) {
  SmallVector<linalg::GenericOp> out;
  std::function<void(linalg::GenericOp)> visit = [&](linalg::GenericOp op) {
    for (OpOperand *input : op.getDpsInputOperands()) {
      linalg::GenericOp writer = recompute.lookup(input->get());
      if (!writer || llvm::is_contained(ops, writer) || llvm::is_contained(out, writer))
        continue;
      visit(writer);
      out.push_back(writer);
    }
  };
  for (linalg::GenericOp op : ops)
    visit(op);
  return out;
}

Value HostRowEmitter::body(const Pass &pass, Value c, Value mask,
                           const DenseSet<Value> &privateBuffers, const IRMapping &rowValues) {
  DenseMap<Value, Value> inRegisters; // buffer -> this vector of it
  SmallVector<Value> at = ivs(c);
  std::function<void(linalg::GenericOp, IRMapping &)> loadInputs;
  // A recomputed buffer's writer run again on this vector (its inputs
  // loaded or recomputed in turn): its values go to registers only.
  auto recomputeWriter = [&](linalg::GenericOp writer) {
    IRMapping m;
    loadInputs(writer, m);
    SmallVector<Value> results = vectorizeBody(writer, m, c);
    for (auto [v, init] : llvm::zip(results, writer.getDpsInits()))
      inRegisters[init] = broadcast(v);
  };
  loadInputs = [&](linalg::GenericOp op, IRMapping &m) {
    Block &body = op.getRegion().front();
    for (OpOperand *input : op.getDpsInputOperands()) {
      BlockArgument arg = body.getArgument(input->getOperandNumber());
      if (arg.use_empty())
        continue;
      if (Value v = rowValues.lookupOrNull(arg)) {
        m.map(arg, v);
        continue;
      }
      AffineMap map = op.getMatchingIndexingMap(input);
      Value buffer = input->get();
      if (Value v = inRegisters.lookup(buffer); v && map.isIdentity()) {
        m.map(arg, v);
        continue;
      }
      if (linalg::GenericOp writer = recompute.lookup(buffer); writer && map.isIdentity()) {
        recomputeWriter(writer);
        m.map(arg, inRegisters.lookup(buffer));
        continue;
      }
      VectorType type = vectorOf(arg.getType());
      SmallVector<Value> index = gpu::indices(b, loc, map, at);
      if (Value row = scratch.lookup(buffer)) {
        buffer = row;
        index = {scratchRow, c};
      }
      // Lanes past the row read 1, not 0: an integer division there must
      // not trap (their values are dropped).
      Value v = mask ? vector::MaskedLoadOp::create(b, loc, type, buffer, index, mask,
                                                    splat(b, loc, type, 1.0))
                           .getResult()
                     : vector::LoadOp::create(b, loc, type, buffer, index).getResult();
      m.map(arg, v);
    }
  };
  for (linalg::GenericOp op : pass.elementwise) {
    IRMapping m;
    loadInputs(op, m);
    SmallVector<Value> results = vectorizeBody(op, m, c);
    for (auto [v, init] : llvm::zip(results, op.getDpsInitsMutable())) {
      Value vec = broadcast(v);
      inRegisters[init.get()] = vec;
      if (privateBuffers.contains(init.get()) || recompute.contains(init.get()))
        continue; // read in registers by this pass's next ops, recomputed by later passes
      SmallVector<Value> index = gpu::indices(b, loc, op.getMatchingIndexingMap(&init), at);
      Value buffer = init.get();
      if (Value row = scratch.lookup(buffer)) {
        buffer = row;
        index = {scratchRow, c};
      }
      if (mask)
        vector::MaskedStoreOp::create(b, loc, buffer, index, mask, vec);
      else
        vector::StoreOp::create(b, loc, vec, buffer, index);
    }
  }
  if (!pass.reduction)
    return nullptr;
  linalg::GenericOp op = pass.reduction;
  IRMapping m;
  loadInputs(op, m);
  vectorizeBody(op, m, c);
  Operation *combiner = gpu::combinerOf(op);
  BlockArgument out = op.getRegion().front().getArguments().back();
  Value term = combiner->getOperand(0) == out ? combiner->getOperand(1) : combiner->getOperand(0);
  return broadcast(m.lookupOrDefault(term));
}
