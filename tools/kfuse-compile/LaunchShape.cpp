//===- LaunchShape.cpp - a kernel's grid, block and shared memory ----------===//
//
// kernels.json says how each kernel is launched as the host code really
// launches it: the gpu.launch_func operands followed back through the host
// function's index arithmetic, folded to numbers when the sizes are static
// and printed as formulas in d0, d1, ... when they are not.
//
//===----------------------------------------------------------------------===//
#include "tools/kfuse-compile/LaunchShape.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace kfuse {

SizeExpr sizeExpr(Value v, ArrayRef<std::string> symbols, unsigned depth) {
  auto atom = [](std::string text) { return SizeExpr{std::nullopt, std::move(text), 0}; };
  auto constant = [](int64_t c) { return SizeExpr{c, "", 0}; };
  Operation *def = v.getDefiningOp();
  if (!def || depth > 64)
    return atom("?");
  auto sub = [&](Value operand) { return sizeExpr(operand, symbols, depth + 1); };
  auto dimOf = [&](Value memref, int64_t d) -> SizeExpr {
    auto type = dyn_cast<MemRefType>(memref.getType());
    if (!type || d < 0 || d >= type.getRank())
      return atom("?");
    if (!type.isDynamicDim(d))
      return constant(type.getDimSize(d));
    if (auto arg = dyn_cast<BlockArgument>(memref)) {
      std::string meaning = "dim " + std::to_string(d) + " of arg " +
                            std::to_string(arg.getArgNumber());
      auto it = llvm::find(symbols, meaning);
      return atom(it != symbols.end() ? "d" + std::to_string(it - symbols.begin())
                                      : "(" + meaning + ")");
    }
    if (auto alloc = memref.getDefiningOp<gpu::AllocOp>())
      return sub(alloc.getDynamicSizes()[type.getDynamicDimIndex(d)]);
    return atom("?");
  };
  // a op b, folded when both are numbers.
  auto binary = [&](Operation *op, int level, const char *sep,
                    llvm::function_ref<std::optional<int64_t>(int64_t, int64_t)> fold) {
    SizeExpr a = sub(op->getOperand(0)), b = sub(op->getOperand(1));
    if (a.value && b.value)
      if (std::optional<int64_t> c = fold(*a.value, *b.value))
        return constant(*c);
    // x * 1, 1 * x, x + 0: what the emitters write for a rank's missing dims.
    if (level == 1 && a.value == 1)
      return b;
    if ((level == 1 && b.value == 1) || (level == 2 && b.value == 0))
      return a;
    // A right operand of a division or difference at the same level keeps
    // its parentheses: a / (b * c).
    bool keepRight = StringRef(sep) == " / " || StringRef(sep) == " - ";
    return SizeExpr{std::nullopt,
                    a.atLevel(level) + sep + b.atLevel(keepRight ? level - 1 : level), level};
  };
  auto call = [&](Operation *op, const char *name,
                  llvm::function_ref<std::optional<int64_t>(int64_t, int64_t)> fold) {
    SizeExpr a = sub(op->getOperand(0)), b = sub(op->getOperand(1));
    if (a.value && b.value)
      if (std::optional<int64_t> c = fold(*a.value, *b.value))
        return constant(*c);
    return atom(std::string(name) + "(" + a.str() + ", " + b.str() + ")");
  };
  using Fold = std::optional<int64_t>;
  return llvm::TypeSwitch<Operation *, SizeExpr>(def)
      .Case([&](arith::ConstantOp op) {
        auto attr = dyn_cast<IntegerAttr>(op.getValue());
        return attr ? constant(attr.getInt()) : atom("?");
      })
      .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp, arith::ExtSIOp,
            arith::TruncIOp>([&](Operation *op) { return sub(op->getOperand(0)); })
      .Case([&](memref::DimOp op) {
        std::optional<int64_t> d = op.getConstantIndex();
        return d ? dimOf(op.getSource(), *d) : atom("?");
      })
      .Case<arith::AddIOp>([&](Operation *op) {
        return binary(op, 2, " + ", [](int64_t a, int64_t b) -> Fold {
          int64_t c;
          return __builtin_add_overflow(a, b, &c) ? Fold() : c;
        });
      })
      .Case<arith::SubIOp>([&](Operation *op) {
        return binary(op, 2, " - ", [](int64_t a, int64_t b) -> Fold {
          int64_t c;
          return __builtin_sub_overflow(a, b, &c) ? Fold() : c;
        });
      })
      .Case<arith::MulIOp>([&](Operation *op) {
        return binary(op, 1, "*", [](int64_t a, int64_t b) -> Fold {
          int64_t c;
          return __builtin_mul_overflow(a, b, &c) ? Fold() : c;
        });
      })
      .Case<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp>([&](Operation *op) {
        return binary(op, 1, " / ", [](int64_t a, int64_t b) -> Fold {
          return b > 0 && a >= 0 ? Fold(a / b) : Fold();
        });
      })
      .Case<arith::RemUIOp, arith::RemSIOp>([&](Operation *op) {
        return binary(op, 1, " % ", [](int64_t a, int64_t b) -> Fold {
          return b > 0 && a >= 0 ? Fold(a % b) : Fold();
        });
      })
      .Case<arith::CeilDivUIOp, arith::CeilDivSIOp>([&](Operation *op) {
        return call(op, "ceildiv", [](int64_t a, int64_t b) -> Fold {
          return b > 0 && a >= 0 ? Fold(a / b + (a % b != 0)) : Fold();
        });
      })
      .Case<arith::MaxUIOp, arith::MaxSIOp>([&](Operation *op) {
        return call(op, "max", [](int64_t a, int64_t b) -> Fold { return std::max(a, b); });
      })
      .Case<arith::MinUIOp, arith::MinSIOp>([&](Operation *op) {
        return call(op, "min", [](int64_t a, int64_t b) -> Fold { return std::min(a, b); });
      })
      .Default([&](Operation *) { return atom("?"); });
}

llvm::json::Value sizeJson(const SizeExpr &e) {
  if (e.value)
    return *e.value;
  return e.text;
}

/// Bytes of the workgroup (shared) memory a kernel declares.
std::optional<int64_t> sharedBytes(gpu::GPUFuncOp func) {
  int64_t total = 0;
  for (BlockArgument a : func.getWorkgroupAttributions()) {
    auto type = dyn_cast<MemRefType>(a.getType());
    if (!type || !type.hasStaticShape())
      return std::nullopt;
    // The matmul's tiles hold vectors (4 elements a slot: MatmulSimt.cpp).
    Type element = type.getElementType();
    int64_t lanes = 1;
    if (auto vector = dyn_cast<VectorType>(element)) {
      if (vector.isScalable())
        return std::nullopt;
      lanes = vector.getNumElements();
      element = vector.getElementType();
    }
    if (!element.isIntOrFloat())
      return std::nullopt;
    total += type.getNumElements() * lanes * ((element.getIntOrFloatBitWidth() + 7) / 8);
  }
  return total;
}

} // namespace kfuse
