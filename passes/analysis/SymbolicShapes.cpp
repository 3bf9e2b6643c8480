//===- SymbolicShapes.cpp - tensor sizes as polynomials in dims -----------===//
#include "passes/analysis/SymbolicShapes.h"

#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <functional>
#include <limits>

using namespace mlir;

namespace kfuse::analysis {

//===----------------------------------------------------------------------===//
// Poly
//===----------------------------------------------------------------------===//

Poly Poly::constant(int64_t c) {
  Poly p;
  p.terms[{}] = c;
  p.normalize();
  return p;
}

Poly Poly::symbol(unsigned id) {
  Poly p;
  p.terms[{id}] = 1;
  return p;
}

void Poly::normalize() {
  for (auto it = terms.begin(); it != terms.end();)
    it = it->second == 0 ? terms.erase(it) : std::next(it);
}

void Poly::addTerm(const std::vector<unsigned> &mono, int64_t c) {
  int64_t &slot = terms[mono];
  if (llvm::AddOverflow(slot, c, slot))
    overflowed = true;
}

Poly Poly::operator+(const Poly &o) const {
  Poly r = *this;
  r.overflowed |= o.overflowed;
  for (auto &[mono, c] : o.terms)
    r.addTerm(mono, c);
  r.normalize();
  return r;
}

Poly Poly::operator*(const Poly &o) const {
  Poly r;
  r.overflowed = overflowed || o.overflowed;
  for (auto &[m1, c1] : terms)
    for (auto &[m2, c2] : o.terms) {
      std::vector<unsigned> m = m1;
      m.insert(m.end(), m2.begin(), m2.end());
      llvm::sort(m);
      int64_t c;
      if (llvm::MulOverflow(c1, c2, c))
        r.overflowed = true;
      r.addTerm(m, c);
    }
  r.normalize();
  return r;
}

std::optional<Poly> Poly::divideBy(int64_t c) const {
  if (c == 0 || overflowed)
    return std::nullopt;
  Poly r;
  for (auto &[m, k] : terms) {
    if ((c == -1 && k == std::numeric_limits<int64_t>::min()) || k % c != 0)
      return std::nullopt;
    r.terms[m] = k / c;
  }
  return r;
}

std::optional<int64_t> Poly::getConstant() const {
  if (overflowed)
    return std::nullopt;
  if (terms.empty())
    return 0;
  if (terms.size() == 1 && terms.begin()->first.empty())
    return terms.begin()->second;
  return std::nullopt;
}

std::optional<int64_t>
Poly::evaluate(ArrayRef<std::optional<int64_t>> symbols, bool *overflow) const {
  auto overflows = [&]() -> std::optional<int64_t> {
    if (overflow)
      *overflow = true;
    return std::nullopt;
  };
  int64_t total = 0;
  bool wrapped = overflowed;
  for (auto &[m, c] : terms) {
    int64_t v = c;
    for (unsigned s : m) {
      if (s >= symbols.size() || !symbols[s])
        return std::nullopt; // unknown: a polynomial, not an overflow
      wrapped |= llvm::MulOverflow(v, *symbols[s], v);
    }
    wrapped |= llvm::AddOverflow(total, v, total);
  }
  if (wrapped)
    return overflows();
  return total;
}

Poly Poly::renumbered(llvm::function_ref<unsigned(unsigned)> rename) const {
  Poly p;
  for (auto &[m, c] : terms) {
    std::vector<unsigned> mono;
    for (unsigned id : m)
      mono.push_back(rename(id));
    llvm::sort(mono);
    p.addTerm(mono, c);
  }
  p.overflowed |= overflowed;
  p.normalize();
  return p;
}

std::string Poly::str() const {
  if (overflowed)
    return "overflow";
  if (terms.empty())
    return "0";
  std::string s;
  // Highest-degree terms first, constants last.
  for (auto it = terms.rbegin(); it != terms.rend(); ++it) {
    auto &[m, c] = *it;
    if (!s.empty())
      s += c < 0 ? " - " : " + ";
    else if (c < 0)
      s += "-";
    // The magnitude as unsigned: |INT64_MIN| is no int64.
    std::string a = std::to_string(c < 0 ? 0 - (uint64_t)c : (uint64_t)c);
    std::string mono;
    for (unsigned id : m)
      mono += (mono.empty() ? "" : "*") + ("d" + std::to_string(id));
    if (mono.empty())
      s += a;
    else
      s += (a == "1" ? "" : a + "*") + mono;
  }
  return s;
}

//===----------------------------------------------------------------------===//
// SymbolicShapes
//===----------------------------------------------------------------------===//

SymbolicShapes::SymbolicShapes(func::FuncOp func) {
  // Number the dynamic argument dims first, in argument order, so that the
  // names are stable and readable.
  for (BlockArgument arg : func.getArguments())
    if (auto type = dyn_cast<RankedTensorType>(arg.getType()))
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.isDynamicDim(d))
          argSymbols[{arg, d}] =
              freshSymbol("dim " + std::to_string(d) + " of arg " +
                          std::to_string(arg.getArgNumber()));
}

unsigned SymbolicShapes::namedSymbol(const std::string &meaning) {
  auto [pos, inserted] = symbolOfMeaning.try_emplace(meaning, 0);
  if (inserted)
    pos->second = freshSymbol(meaning);
  return pos->second;
}

unsigned SymbolicShapes::freshSymbol(std::string meaning) {
  meanings.push_back(std::move(meaning));
  return meanings.size() - 1;
}

Poly SymbolicShapes::dim(Value v, int64_t d) {
  auto type = cast<RankedTensorType>(v.getType());
  if (!type.isDynamicDim(d))
    return Poly::constant(type.getDimSize(d));
  auto it = argSymbols.find({v, d});
  if (it != argSymbols.end())
    return Poly::symbol(it->second);
  Operation *def = v.getDefiningOp();
  auto unknown = [&]() {
    auto [pos, inserted] = argSymbols.try_emplace({v, d}, 0);
    if (inserted)
      pos->second = freshSymbol("a size computed at run time");
    return Poly::symbol(pos->second);
  };
  if (!def)
    return unknown();
  unsigned resultNo = cast<OpResult>(v).getResultNumber();
  return llvm::TypeSwitch<Operation *, Poly>(def)
      .Case([&](tensor::EmptyOp op) { return index(op.getDynamicSize(d)); })
      .Case([&](DestinationStyleOpInterface op) {
        return dim(op.getDpsInits()[resultNo], d);
      })
      .Case([&](tensor::CastOp op) { return dim(op.getSource(), d); })
      .Case([&](tensor::ExpandShapeOp op) {
        OpFoldResult size = op.getMixedOutputShape()[d];
        if (auto attr = dyn_cast<Attribute>(size))
          return Poly::constant(cast<IntegerAttr>(attr).getInt());
        return index(cast<Value>(size));
      })
      .Case([&](tensor::CollapseShapeOp op) {
        // getReassociationIndices() returns a temporary: iterating over an
        // element of it would read freed memory (a range-for does not keep
        // it alive), so it is kept here.
        SmallVector<ReassociationIndices> groups = op.getReassociationIndices();
        Poly p = Poly::constant(1);
        for (int64_t src : groups[d])
          p = p * dim(op.getSrc(), src);
        return p;
      })
      .Case([&](kf::KernelOp op) {
        auto yield = cast<kf::YieldOp>(op.getBody().front().getTerminator());
        return dim(yield.getValues()[resultNo], d);
      })
      .Default([&](Operation *) { return unknown(); });
}

Poly SymbolicShapes::index(Value v) {
  if (auto c = getConstantIntValue(v))
    return Poly::constant(*c);
  Operation *def = v.getDefiningOp();
  auto opaque = [&]() {
    auto [pos, inserted] = opaqueSymbols.try_emplace(v, 0);
    if (inserted)
      pos->second = freshSymbol("a size computed at run time");
    return Poly::symbol(pos->second);
  };
  if (!def)
    return opaque();
  if (auto dimOp = dyn_cast<tensor::DimOp>(def))
    if (auto d = dimOp.getConstantIndex())
      return dim(dimOp.getSource(), *d);
  if (auto mul = dyn_cast<arith::MulIOp>(def))
    return index(mul.getLhs()) * index(mul.getRhs());
  if (auto add = dyn_cast<arith::AddIOp>(def))
    return index(add.getLhs()) + index(add.getRhs());
  // Sizes resolved by upstream's dim patterns come as affine.apply
  // (`s0 * 3` for a collapsed 3x? tensor).
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    AffineMap map = apply.getAffineMap();
    std::function<std::optional<Poly>(AffineExpr)> eval =
        [&](AffineExpr e) -> std::optional<Poly> {
      if (auto c = dyn_cast<AffineConstantExpr>(e))
        return Poly::constant(c.getValue());
      if (auto d = dyn_cast<AffineDimExpr>(e))
        return index(apply.getMapOperands()[d.getPosition()]);
      if (auto s = dyn_cast<AffineSymbolExpr>(e))
        return index(apply.getMapOperands()[map.getNumDims() + s.getPosition()]);
      auto bin = cast<AffineBinaryOpExpr>(e);
      auto l = eval(bin.getLHS()), r = eval(bin.getRHS());
      if (!l || !r)
        return std::nullopt;
      switch (e.getKind()) {
      case AffineExprKind::Add:
        return *l + *r;
      case AffineExprKind::Mul:
        return *l * *r;
      case AffineExprKind::FloorDiv:
      case AffineExprKind::CeilDiv:
        if (auto c = r->getConstant(); c && *c > 0)
          return l->divideBy(*c); // exact division only
        return std::nullopt;
      default:
        return std::nullopt;
      }
    };
    if (map.getNumResults() == 1)
      if (auto p = eval(map.getResult(0)))
        return *p;
  }
  if (auto div = dyn_cast<arith::DivUIOp>(def))
    if (auto c = index(div.getRhs()).getConstant()) {
      Poly lhs = index(div.getLhs());
      if (auto q = lhs.divideBy(*c))
        return *q;
      // A reshape's inferred size, (2*d0) / 8: not a polynomial, but named
      // by what it is, so that every analysis of the function (eager and
      // fused) calls it the same and a reader can compute it.
      return Poly::symbol(namedSymbol("(" + lhs.str() + ") / " + std::to_string(*c)));
    }
  return opaque();
}

std::vector<Poly> SymbolicShapes::shape(Value v) {
  std::vector<Poly> out;
  auto type = cast<RankedTensorType>(v.getType());
  for (int64_t d = 0; d < type.getRank(); ++d)
    out.push_back(dim(v, d));
  return out;
}

Poly SymbolicShapes::numel(Value v) {
  Poly p = Poly::constant(1);
  for (const Poly &d : shape(v))
    p = p * d;
  return p;
}

Poly SymbolicShapes::bytes(Value v) {
  Type elt = cast<RankedTensorType>(v.getType()).getElementType();
  int64_t width = std::max<int64_t>(1, elt.getIntOrFloatBitWidth() / 8);
  return numel(v) * Poly::constant(width);
}

} // namespace kfuse::analysis
