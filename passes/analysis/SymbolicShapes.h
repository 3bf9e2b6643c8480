//===- SymbolicShapes.h - tensor sizes as polynomials in dims ---*- C++ -*-===//
//
// Sizes in kfuse's reports may depend on dynamic dims. Each dynamic dim of a
// function argument is a symbol (d0, d1, ... in argument order); sizes are
// polynomials in those symbols ("5*d0", "d0*d1 + 8"), evaluated when the
// user gives the symbols' values.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_ANALYSIS_SYMBOLICSHAPES_H
#define KFUSE_PASSES_ANALYSIS_SYMBOLICSHAPES_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace kfuse::analysis {

/// A polynomial with integer coefficients in symbols d0, d1, ...
/// Arithmetic is checked: a coefficient that would overflow int64 makes the
/// polynomial "overflowed" (no constant, no value, printed "overflow"),
/// never a wrapped number.
class Poly {
public:
  Poly() = default;
  static Poly constant(int64_t c);
  static Poly symbol(unsigned id);

  Poly operator+(const Poly &o) const;
  Poly operator*(const Poly &o) const;
  /// Exact division by a constant; nullopt when a coefficient does not divide.
  std::optional<Poly> divideBy(int64_t c) const;
  bool operator==(const Poly &o) const {
    return overflowed == o.overflowed && terms == o.terms;
  }
  bool operator!=(const Poly &o) const { return !(*this == o); }

  /// nullopt when not a constant or overflowed.
  std::optional<int64_t> getConstant() const;
  /// Whether some coefficient overflowed int64.
  bool hasOverflowed() const { return overflowed; }
  /// The same polynomial with symbol i renamed to rename(i).
  Poly renumbered(llvm::function_ref<unsigned(unsigned)> rename) const;
  /// The value for concrete symbol values; nullopt if a symbol is unknown
  /// or the value overflows int64 (then `*overflow` is set, when given).
  std::optional<int64_t> evaluate(llvm::ArrayRef<std::optional<int64_t>> symbols,
                                  bool *overflow = nullptr) const;
  /// "5*d0 + 3", "d0*d1", "0"; "overflow" when overflowed.
  std::string str() const;

private:
  // monomial (sorted symbol ids, repeated for powers) -> coefficient
  std::map<std::vector<unsigned>, int64_t> terms;
  bool overflowed = false;
  /// terms[mono] += c, checked.
  void addTerm(const std::vector<unsigned> &mono, int64_t c);
  void normalize();
};

/// Resolves the sizes of tensors in one function to polynomials in its
/// dynamic argument dims, by following how the IR computes each dynamic
/// size (tensor.dim, tensor.empty sizes, reshape output shapes, index math,
/// linalg inits, kernel results). A size it cannot follow becomes a fresh
/// symbol of its own.
class SymbolicShapes {
public:
  explicit SymbolicShapes(mlir::func::FuncOp func);

  /// The size of dim `d` of tensor `v`.
  Poly dim(mlir::Value v, int64_t d);
  /// All dims of `v`.
  std::vector<Poly> shape(mlir::Value v);
  /// Number of elements of `v`.
  Poly numel(mlir::Value v);
  /// Number of bytes of `v` (i1 counts as one byte).
  Poly bytes(mlir::Value v);
  /// The index-typed value `v` as a polynomial.
  Poly index(mlir::Value v);

  /// What each symbol stands for: "dim 0 of arg 1".
  const std::vector<std::string> &symbolMeanings() const { return meanings; }

private:
  unsigned freshSymbol(std::string meaning);
  /// The symbol of a size given by an expression, one per expression.
  unsigned namedSymbol(const std::string &meaning);
  llvm::DenseMap<std::pair<mlir::Value, int64_t>, unsigned> argSymbols;
  llvm::DenseMap<mlir::Value, unsigned> opaqueSymbols;
  std::map<std::string, unsigned> symbolOfMeaning;
  std::vector<std::string> meanings;
};

} // namespace kfuse::analysis

#endif // KFUSE_PASSES_ANALYSIS_SYMBOLICSHAPES_H
