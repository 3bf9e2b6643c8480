//===- LaunchShape.h - a kernel's grid, block and shared memory -*- C++ -*-===//
#ifndef KFUSE_TOOLS_KFUSE_COMPILE_LAUNCHSHAPE_H
#define KFUSE_TOOLS_KFUSE_COMPILE_LAUNCHSHAPE_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Value.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace kfuse {

/// A launch size as the host computes it: a number when static, else the
/// formula in d0, d1, ... (the kernel report's symbols) and its precedence
/// for parentheses (0: an atom or a call, 1: a product, 2: a sum).
struct SizeExpr {
  std::optional<int64_t> value;
  std::string text;
  int level = 0;
  std::string str() const { return value ? std::to_string(*value) : text; }
  std::string atLevel(int max) const { return level > max ? "(" + str() + ")" : str(); }
};

/// Follows how the host function computes `v` (index arithmetic over
/// memref.dim of its arguments and gpu.alloc sizes), folding constants.
/// What it cannot follow is "?": kernels.json then says less, never wrong.
SizeExpr sizeExpr(mlir::Value v, llvm::ArrayRef<std::string> symbols, unsigned depth = 0);

/// A size as JSON: its number, or its formula as a string.
llvm::json::Value sizeJson(const SizeExpr &e);

/// Bytes of the workgroup (shared) memory a kernel declares.
std::optional<int64_t> sharedBytes(mlir::gpu::GPUFuncOp func);

} // namespace kfuse

#endif // KFUSE_TOOLS_KFUSE_COMPILE_LAUNCHSHAPE_H
