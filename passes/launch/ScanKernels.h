//===- ScanKernels.h - prefix scans, a thread a line, any target -*- C++ -*-===//
//
// kf.cumsum reaches the mappings as a reduction that spells n (n + 1) / 2
// additions a line (kf-to-linalg/ScanToLinalg.cpp). The scan mapping
// recognizes that body and runs what it means: each line along the scanned
// dim walked once, in order, by one thread, with a running sum (for floats
// compensated, as kfuse's other sums, utils/CompensatedSum.h, or in f64:
// the target's choice, ScanSum). Written once for both targets on
// gpu.launch: the GPU runs a thread per line, the host runtime a block per
// share of the lines.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_LAUNCH_SCANKERNELS_H
#define KFUSE_PASSES_LAUNCH_SCANKERNELS_H

#include "passes/launch/LaunchTarget.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace kfuse::launch {

/// A kernel that is one prefix scan: its accumulator's fill, the scan (a
/// generic whose last loop is a reduction over the scanned dim `dim`'s
/// terms up to the result's index along it, the terms computed in its body
/// from inputs read at the term's index), and elementwise ops after it that
/// read what is computed at an element there only (the rounding of f16 and
/// bf16, a mask builder's `where(m, c - 1, 1)`).
struct ScanKernel {
  mlir::linalg::GenericOp scan;
  unsigned dim;
  llvm::SmallVector<mlir::linalg::GenericOp> epilogue;
};

/// The scanned dim of `op`, if it is a scan as ScanToLinalg writes it.
std::optional<unsigned> matchScan(mlir::linalg::GenericOp op);

/// Whether any of `ops` is a scan.
bool holdsScan(llvm::ArrayRef<mlir::linalg::LinalgOp> ops);

/// `ops` (a kernel's, on tensors or on buffers, in program order) as one
/// scan alone, or nothing.
std::optional<ScanKernel> matchScanKernel(llvm::ArrayRef<mlir::linalg::LinalgOp> ops);

/// The sizes of `scan`'s loops but its last (the result's dims), as
/// values at the builder's point.
llvm::SmallVector<mlir::Value> resultSizes(mlir::OpBuilder &b, mlir::Location loc,
                                           mlir::linalg::GenericOp scan);

/// How a line's float terms are summed: the target's policy, handed in.
enum class ScanSum {
  /// In the accumulator's type, compensated (the GPU: f64 is slow on most
  /// of them).
  Compensated,
  /// f16, bf16 and f32 in f64, a plain running sum, as PyTorch's CPU
  /// kernel does (its results, bit for bit, for f32): one add a term on
  /// the dependency chain where the compensated sum has four, which is
  /// what a line's time is on a CPU core. f64 stays compensated.
  Float64,
};

/// The launch of scan kernel `name` (on buffers) at the builder's point:
/// a thread a line, `target` saying how many a block, `sum` how they add.
mlir::LogicalResult mapScanKernel(mlir::OpBuilder &b, mlir::StringAttr name,
                                  llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                                  const LaunchTarget &target, ScanSum sum);

} // namespace kfuse::launch

#endif // KFUSE_PASSES_LAUNCH_SCANKERNELS_H
