//===- KernelsToLaunches.h - each kernel as its launch, any target -*- C++ -*-===//
//
// The mechanism both mapping passes share (kf-map-kernels-to-gpu,
// kf-map-kernels-to-host): a bufferized kf.kernel (no results, its buffers
// allocated before it: kf-hoist-kernel-buffers) whose mapping
// kf-assign-kernel-mappings decided on tensors becomes its launch, named
// after it. What each kind of kernel becomes is the target's policy,
// handed in as a KernelLauncher (as upstream Linalg takes its control
// functions): the launchers only emit and do not analyse the kernel again.
//
// The mechanism: every kernel must have a mapping and be bufferized; a
// kernel whose last block finishes the work (grid_reduction, row_chain,
// multi_reduction)
// gets its ticket counter (LastBlockTicket.h); a reduction or matmul
// kernel that lost its reduction on buffers runs flat; a kernel no mapping
// serves (`serial`, the host runtime's fallback) runs as one launch of one
// thread on any target, its ops moved in unchanged; the kernels'
// boundaries go; buffers no launch uses any more (an intermediate a
// mapping keeps on chip) are erased with their frees.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_LAUNCH_KERNELSTOLAUNCHES_H
#define KFUSE_PASSES_LAUNCH_KERNELSTOLAUNCHES_H

#include "dialect/Kf/KfOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

#include <array>

namespace kfuse::launch {

/// How one target launches each kind of kernel. Each hook builds, at the
/// rewriter's insertion point (before the kernel), the launch of kernel
/// `name` that runs `ops` (bufferized, in program order; left in place:
/// the kernel is erased after). A failure has said why.
class KernelLauncher {
public:
  virtual ~KernelLauncher();
  /// Pointwise and transpose kernels (fills already generics).
  virtual mlir::LogicalResult flat(mlir::RewriterBase &b, mlir::StringAttr name,
                                   llvm::ArrayRef<mlir::linalg::GenericOp> ops) const = 0;
  /// Row kernels and row chains: `kernel` for its variant
  /// (kf-assign-kernel-mappings' choice).
  virtual mlir::LogicalResult row(mlir::RewriterBase &b, kf::KernelOp kernel,
                                  llvm::ArrayRef<mlir::linalg::LinalgOp> ops) const = 0;
  /// `ticket`: the kernel's counter (LastBlockTicket.h).
  virtual mlir::LogicalResult gridReduction(mlir::RewriterBase &b, mlir::StringAttr name,
                                            llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                                            mlir::FlatSymbolRefAttr ticket) const = 0;
  virtual mlir::LogicalResult rowChain(mlir::RewriterBase &b, kf::KernelOp kernel,
                                       llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                                       mlir::FlatSymbolRefAttr ticket) const = 0;
  /// `kernel` for its variant (kf-assign-kernel-mappings' choice).
  virtual mlir::LogicalResult matmul(mlir::RewriterBase &b, kf::KernelOp kernel,
                                     llvm::ArrayRef<mlir::linalg::LinalgOp> ops) const = 0;
  /// softmax(q @ k^T ...) @ v (gpu/attention/AttentionKernels.h).
  virtual mlir::LogicalResult attention(mlir::RewriterBase &b, mlir::StringAttr name,
                                        llvm::ArrayRef<mlir::linalg::LinalgOp> ops) const = 0;
  /// Reductions over rows and columns of one tensor (gpu/rows/RowKernels.h);
  /// `ticket` as for gridReduction.
  virtual mlir::LogicalResult multiReduction(mlir::RewriterBase &b, mlir::StringAttr name,
                                             llvm::ArrayRef<mlir::linalg::LinalgOp> ops,
                                             mlir::FlatSymbolRefAttr ticket) const = 0;
  /// A prefix scan alone (launch/ScanKernels.h).
  virtual mlir::LogicalResult scan(mlir::RewriterBase &b, mlir::StringAttr name,
                                   llvm::ArrayRef<mlir::linalg::LinalgOp> ops) const = 0;
};

/// A mapping pass's statistics (Passes.td: flat-kernels, row-kernels, ...),
/// one a mapping, in the order of KernelMapping's values: flat, row,
/// grid_reduction, matmul, serial, row_chain, attention, multi_reduction,
/// scan.
using MappingStatistics = std::array<mlir::Pass::Statistic *, 9>;

/// Replaces every kf.kernel of `module` by its launch, `launcher` building
/// each; diagnostics start with `pass` (the pass's name); each kernel is
/// counted in its mapping's statistic. Fails when a kernel has no mapping,
/// is not bufferized, or was refused.
mlir::LogicalResult mapKernelsToLaunches(mlir::ModuleOp module, llvm::StringRef pass,
                                         const KernelLauncher &launcher,
                                         const MappingStatistics &statistics);

} // namespace kfuse::launch

#endif // KFUSE_PASSES_LAUNCH_KERNELSTOLAUNCHES_H
