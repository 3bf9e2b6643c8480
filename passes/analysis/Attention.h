//===- Attention.h - softmax(q @ k^T ...) @ v in linalg ops -----*- C++ -*-===//
//
// The attention pattern as kf-to-linalg writes it, recognized once for
// kernel formation (fusion/MatmulGroups.cpp: which ops form one kernel)
// and for the mappings (gpu/attention/: what that kernel computes), on
// tensors or on buffers:
//
//   S = Q @ K            a contraction over the head dim (batch..., m, n, k)
//   X = f(S, ...)        elementwise ops over S's elements (scale, mask)
//   P = softmax(X)       max, sub, exp, sum, div over the last dim (and
//                        PyTorch's safe softmax: zeros where max is -inf)
//   O = P @ V            a contraction over the keys
//
// Q, K and V may be copies of views (a head split's transpose, a slice of
// a fused projection: `kf.view` generics) that the kernel reads in place,
// and O may be copied out permuted (the head merge's `contiguous`). Only S,
// X, P and the softmax's values are the pattern's own: nothing else may
// read them, so a kernel that never writes them computes the same.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_ANALYSIS_ATTENTION_H
#define KFUSE_PASSES_ANALYSIS_ATTENTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kfuse::analysis {

struct AttentionParts {
  /// The two contractions: loops (batch..., m, n, k), k the one reduction,
  /// the result [batch..., m, n]; S = qk, O = pv.
  mlir::linalg::LinalgOp qk, pv;
  mlir::linalg::FillOp qkFill, pvFill, maxFill, sumFill;
  /// Elementwise ops from S to the softmax's input, in order; each reads
  /// the previous value at its own element (other inputs anywhere).
  llvm::SmallVector<mlir::linalg::GenericOp> scores;
  /// The softmax over the last dim: max, x - max, exp, sum, exp / sum.
  mlir::linalg::GenericOp max, sub, exp, sum, div;
  /// PyTorch's safe softmax, when the pattern has it: where(eq, 0, p),
  /// eq = (max == -inf): a row masked whole gives zeros, not 0 / 0.
  mlir::linalg::GenericOp safeEq, safeWhere;
  /// Copies of views that Q, K or V are (read in place, never written).
  llvm::SmallVector<mlir::linalg::GenericOp> views;
  /// A copy of O with its dims permuted (the head merge), written instead
  /// of O; null when O itself is the result.
  mlir::linalg::GenericOp output;
  /// The batch loops (qk and pv have the same).
  unsigned batch = 0;

  /// The copy in `views` that writes `v` (a buffer, or a tensor result), or
  /// null.
  mlir::linalg::GenericOp viewWriting(mlir::Value v) const;
};

/// `v` seen through reshapes that only add or drop unit dims and come back
/// to its shape: the value holding the same elements at the same indices.
mlir::Value unitReshapeSource(mlir::Value v);

/// Whether `ops` (a kernel's linalg ops, in program order, on tensors or
/// on buffers) are exactly one attention; what does not fit is streamed
/// into the diagnostic `refuse` returns.
mlir::LogicalResult
analyzeAttention(llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                 llvm::function_ref<mlir::InFlightDiagnostic()> refuse,
                 AttentionParts &parts);

/// The ops of the attention whose second contraction is `pv` (on tensors,
/// in a function before kernel formation), in program order: its fills,
/// the copies of views its Q, K and V are that nothing else reads, and a
/// permuting copy of O when that is O's one reader. Empty when `pv` ends
/// no attention that analyzeAttention accepts, or when something outside
/// reads a value of the pattern's own. When the ops have an attention's
/// shape but the matcher refuses them (f16, head dims), its reason is
/// stored in `refusal`.
llvm::SmallVector<mlir::Operation *> attentionEndingAt(mlir::linalg::LinalgOp pv,
                                                       std::string *refusal = nullptr);

/// The largest head dims (of q and k, plus v's) the attention kernels hold
/// in a thread's registers, its query and its output row: ptxas spills
/// above (sm_90, 255 registers: 64 + 64 takes 231, 96 + 64 241, 96 + 96
/// spills).
inline constexpr int64_t kMaxAttentionHeadDims = 160;

} // namespace kfuse::analysis

#endif // KFUSE_PASSES_ANALYSIS_ATTENTION_H
