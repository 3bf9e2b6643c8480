//===- MatmulChain.h - matmuls summed, a @ b + c @ d -------------*- C++ -*-===//
//
// Issue 26's matmul chain, recognized once for kernel formation (the
// `matmul-chain` rule: which matmul kernels join) and for the mappings
// (gpu/matmul/, host/mappings/: what the joined kernel computes), on
// tensors:
//
//   P1 = A1 @ B1, P2 = A2 @ B2, ...     matmuls with one output space
//   S  = P1 + P2 (+ P3 ...)             elementwise adds, each product
//                                       read by one add, each add but the
//                                       last by the next
//
// The kernel keeps one accumulator: it takes A1 @ B1, then A2 @ B2 (K1 +
// K2 steps, a GEMM over the concatenated K without a concatenated copy),
// and S is that accumulator: tinygrad's one kernel with two accumulations.
// Only where the products are not rounded before the sum (f32, f64,
// integers; f32 as TF32 too): PyTorch rounds f16 and bf16 products to their
// type, then the sum, which one accumulator rounding once would miss by an
// ulp, so those stay a kernel each.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_ANALYSIS_MATMULCHAIN_H
#define KFUSE_PASSES_ANALYSIS_MATMULCHAIN_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <string>

namespace kfuse::analysis {

/// Whether `op` is `x + y` of two values of its own space: a linalg.generic
/// with two inputs and one result, all maps the identity, all loops
/// parallel, its body one arith.addf or arith.addi of the two.
bool isSumOfTwo(mlir::Operation *op);

/// Whether `op` is a sum of a chain in a kernel: isSumOfTwo, each operand
/// a matmul's value (matmulValue) or another such sum of the same block.
/// Kernel formation keeps it an op of its own (its body is not merged
/// with its neighbours'), so that the mappings find the chain.
bool isChainSum(mlir::Operation *op);

/// A matmul's value as its readers see it: its result, or the op that
/// finishes it (rounds an f32 accumulator of f16 or bf16 products) when
/// that is the result's one reader.
mlir::Value matmulValue(mlir::linalg::LinalgOp matmul);

/// The last sum of the chain that `matmuls` (two or more, on tensors, in
/// program order) form with the sums that `inside` accepts, or null with
/// `why` set. Each matmul starts from a constant fill, the later ones from
/// zero (one accumulator takes them all); all have one result type and
/// one element type per operand.
mlir::Operation *matchMatmulChain(llvm::ArrayRef<mlir::linalg::LinalgOp> matmuls,
                                  llvm::function_ref<bool(mlir::Operation *)> inside,
                                  std::string *why = nullptr);

} // namespace kfuse::analysis

#endif // KFUSE_PASSES_ANALYSIS_MATMULCHAIN_H
