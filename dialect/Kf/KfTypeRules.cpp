//===- KfTypeRules.cpp - broadcasting and dtype promotion -----------------===//
#include "dialect/Kf/KfTypeRules.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace kfuse::kf {

bool isKfElementType(Type type) {
  return type.isF32() || type.isF16() || type.isBF16() || type.isF64() ||
         type.isInteger(32) || type.isInteger(64) || type.isInteger(1);
}

namespace {
enum class Category { Bool = 0, Int = 1, Float = 2 };

Category categoryOf(Type t) {
  if (t.isInteger(1))
    return Category::Bool;
  return isa<FloatType>(t) ? Category::Float : Category::Int;
}
} // namespace

Type promoteTypes(Type a, Type b) {
  if (!a)
    return b;
  if (!b || a == b)
    return a;
  Category ca = categoryOf(a), cb = categoryOf(b);
  if (ca != cb)
    return ca > cb ? a : b;
  if (ca == Category::Float) {
    // f16 and bf16 have no common 16-bit type: PyTorch gives f32.
    if ((a.isF16() && b.isBF16()) || (a.isBF16() && b.isF16()))
      return Float32Type::get(a.getContext());
  }
  return a.getIntOrFloatBitWidth() >= b.getIntOrFloatBitWidth() ? a : b;
}

Type resultElementType(TypeRange operandTypes) {
  // torch.result_type keeps separate results for dimensioned and 0-d
  // tensors and combines them by category (c10 combine_categories).
  Type dimResult, zeroResult;
  for (Type t : operandTypes) {
    auto tensor = cast<RankedTensorType>(t);
    Type &slot = tensor.getRank() == 0 ? zeroResult : dimResult;
    slot = promoteTypes(slot, tensor.getElementType());
  }
  if (!dimResult)
    return zeroResult;
  if (!zeroResult || categoryOf(dimResult) >= categoryOf(zeroResult))
    return dimResult;
  if (categoryOf(dimResult) == Category::Bool ||
      categoryOf(zeroResult) == Category::Float)
    return promoteTypes(dimResult, zeroResult);
  return dimResult;
}

FailureOr<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> a,
                                                ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    int64_t &o = out[rank - 1 - i];
    if (da == db)
      o = da;
    else if (da == 1)
      o = db;
    else if (db == 1)
      o = da;
    else if (ShapedType::isDynamic(da))
      o = db; // ? against N: N, checked at run time
    else if (ShapedType::isDynamic(db))
      o = da;
    else
      return failure();
  }
  return out;
}

LogicalResult verifyElementCount(std::optional<Location> loc, StringRef op,
                                 ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    if (!ShapedType::isDynamic(d) && llvm::MulOverflow(n, d, n))
      return emitOptionalError(loc, "'", op, "' tensor ", shapeToString(shape),
                               " has more than 2^63 - 1 elements");
  return success();
}

std::optional<std::string> tensorSizeProblem(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return std::nullopt;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << tensor;
  int64_t elements = 1;
  for (int64_t d : tensor.getShape())
    if (!ShapedType::isDynamic(d) && llvm::MulOverflow(elements, d, elements))
      return text + " has more than 2^63 - 1 elements (its element count "
                    "overflows int64)";
  Type elt = tensor.getElementType();
  if (!elt.isIntOrFloat())
    return std::nullopt;
  int64_t width = std::max<int64_t>(1, (elt.getIntOrFloatBitWidth() + 7) / 8);
  int64_t bytes;
  if (llvm::MulOverflow(elements, width, bytes))
    return text + " has " + std::to_string(elements) + " elements of " +
           std::to_string(width) + " bytes: more than 2^63 - 1 bytes (its "
           "byte size overflows int64)";
  return std::nullopt;
}

LogicalResult verifyTensorSizes(Operation *op) {
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (auto problem = tensorSizeProblem(v.getType()))
      return op->emitOpError("operand #") << i << " " << *problem;
  for (auto [i, v] : llvm::enumerate(op->getResults()))
    if (auto problem = tensorSizeProblem(v.getType()))
      return op->emitOpError("result #") << i << " " << *problem;
  // The signature of the function holding kf ops is what kfuse-run
  // allocates, even for an argument no kf op reads.
  auto func = op->getParentOfType<FunctionOpInterface>();
  if (!func)
    return success();
  for (auto [i, t] : llvm::enumerate(func.getArgumentTypes()))
    if (auto problem = tensorSizeProblem(t))
      return func->emitError("function @")
             << SymbolTable::getSymbolName(func).getValue() << " argument #"
             << i << " " << *problem;
  for (auto [i, t] : llvm::enumerate(func.getResultTypes()))
    if (auto problem = tensorSizeProblem(t))
      return func->emitError("function @")
             << SymbolTable::getSymbolName(func).getValue() << " result #"
             << i << " " << *problem;
  return success();
}

std::string shapeToString(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (i)
      s += "x";
    s += ShapedType::isDynamic(d) ? "?" : std::to_string(d);
  }
  return s;
}

LogicalResult inferElementwiseResult(std::optional<Location> loc, StringRef op,
                                     TypeRange operandTypes, DtypeRule rule,
                                     SmallVectorImpl<Type> &results) {
  SmallVector<int64_t> shape;
  for (auto [i, t] : llvm::enumerate(operandTypes)) {
    auto tensor = cast<RankedTensorType>(t);
    if (i == 0) {
      shape = llvm::to_vector(tensor.getShape());
      continue;
    }
    auto joined = broadcastShapes(shape, tensor.getShape());
    if (failed(joined))
      return emitOptionalError(loc, "'", op, "' operand shapes do not broadcast: ",
                               shapeToString(shape), " and ",
                               shapeToString(tensor.getShape()));
    shape = *joined;
  }
  Type in = resultElementType(operandTypes);
  Type elt = in;
  MLIRContext *ctx = operandTypes.front().getContext();
  auto refuse = [&](StringRef why) {
    return emitOptionalError(loc, "'", op, "' ", why, ", got ", in);
  };
  switch (rule) {
  case DtypeRule::Promote:
  case DtypeRule::Same:
  case DtypeRule::SumPromote: // a reduction rule; see inferReductionResult
    break;
  case DtypeRule::PromoteNoBool:
  case DtypeRule::SameNoBool:
    if (in.isInteger(1))
      return refuse("does not support bool operands");
    break;
  case DtypeRule::TrueDivide:
  case DtypeRule::FloatOrF32:
    if (!isa<FloatType>(in))
      elt = Float32Type::get(ctx);
    break;
  case DtypeRule::FloatOnly:
    if (!isa<FloatType>(in))
      return refuse("needs a floating-point operand");
    break;
  case DtypeRule::Compare:
    elt = IntegerType::get(ctx, 1);
    break;
  case DtypeRule::Select: {
    auto cond = cast<RankedTensorType>(operandTypes[0]).getElementType();
    if (!cond.isInteger(1))
      return emitOptionalError(loc, "'", op, "' condition must be bool (i1), got ",
                               cond);
    elt = resultElementType(operandTypes.drop_front());
    break;
  }
  }
  if (failed(verifyElementCount(loc, op, shape)))
    return failure();
  results.push_back(RankedTensorType::get(shape, elt));
  return success();
}

FailureOr<Type> clampResultType(std::optional<Location> loc, Type input,
                                Attribute min, Attribute max) {
  if (!min && !max)
    return emitOptionalError(loc, "'kf.clamp' needs a min or a max (as "
                                  "torch.clamp: at least one of them must "
                                  "not be None)");
  if (input.isInteger(1))
    return emitOptionalError(loc, "'kf.clamp' does not support bool inputs");
  bool floatBound = isa_and_nonnull<FloatAttr>(min) || isa_and_nonnull<FloatAttr>(max);
  if (isa<FloatType>(input))
    return input;
  if (floatBound)
    return Type(Float32Type::get(input.getContext()));
  unsigned width = input.getIntOrFloatBitWidth();
  for (Attribute a : {min, max}) {
    auto bound = dyn_cast_or_null<IntegerAttr>(a);
    if (bound && !llvm::isIntN(width, bound.getInt()))
      return emitOptionalError(loc, "'kf.clamp' bound ", bound.getInt(),
                               " does not fit ", input,
                               " (torch: value cannot be converted without "
                               "overflow)");
  }
  return input;
}

LogicalResult verifyDims(std::optional<Location> loc, StringRef op,
                         int64_t rank, ArrayRef<int64_t> dims) {
  llvm::SmallSet<int64_t, 4> seen;
  for (int64_t d : dims) {
    // PyTorch lets a 0-d tensor be reduced over dim 0 or -1.
    int64_t bound = std::max<int64_t>(rank, 1);
    if (d < -bound || d >= bound)
      return emitOptionalError(loc, "'", op, "' dim ", d,
                               " is out of range for a tensor of rank ", rank,
                               " (expected in [", -bound, ", ", bound - 1, "])");
    int64_t n = d < 0 ? d + bound : d;
    if (!seen.insert(n).second)
      return emitOptionalError(loc, "'", op, "' dim ", n,
                               " appears more than once in the list of dims");
  }
  return success();
}

SmallVector<int64_t>
normalizeReduceDims(int64_t rank, std::optional<ArrayRef<int64_t>> dims) {
  SmallVector<int64_t> out;
  if (!dims || dims->empty() || rank == 0) {
    for (int64_t i = 0; i < rank; ++i)
      out.push_back(i);
    return out;
  }
  for (int64_t d : *dims)
    out.push_back(d < 0 ? d + rank : d);
  llvm::sort(out);
  return out;
}

LogicalResult inferReductionResult(std::optional<Location> loc, StringRef op,
                                   Type inputType,
                                   std::optional<ArrayRef<int64_t>> dims,
                                   bool keepdim, DtypeRule rule,
                                   SmallVectorImpl<Type> &results) {
  auto input = cast<RankedTensorType>(inputType);
  if (failed(verifyElementCount(loc, op, input.getShape())) ||
      (dims && failed(verifyDims(loc, op, input.getRank(), *dims))))
    return failure();
  Type in = input.getElementType();
  Type elt = in;
  if (rule == DtypeRule::SumPromote && !isa<FloatType>(in))
    elt = IntegerType::get(in.getContext(), 64); // torch.sum of ints is i64
  if (rule == DtypeRule::FloatOnly && !isa<FloatType>(in))
    return emitOptionalError(loc, "'", op,
                             "' needs a floating-point input (as torch.", op.drop_front(3),
                             "), got ",
                             in);
  SmallVector<int64_t> reduced = normalizeReduceDims(input.getRank(), dims);
  // max and min have no identity: like torch.amax/amin, refuse an empty
  // reduced dim (a dynamic one is checked at run time by the lowering).
  if (rule == DtypeRule::Same)
    for (int64_t d : reduced)
      if (input.getRank() > 0 && input.getDimSize(d) == 0)
        return emitOptionalError(loc, "'", op, "' reduces over dim ", d,
                                 " of size 0: max and min of no elements have "
                                 "no value (torch.amax/amin raise)");
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < input.getRank(); ++i) {
    if (!llvm::is_contained(reduced, i))
      shape.push_back(input.getDimSize(i));
    else if (keepdim)
      shape.push_back(1);
  }
  results.push_back(RankedTensorType::get(shape, elt));
  return success();
}

} // namespace kfuse::kf
