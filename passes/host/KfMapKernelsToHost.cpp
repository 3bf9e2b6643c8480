//===- KfMapKernelsToHost.cpp - each kernel as its launch on CPU cores ----===//
//
// kf-map-kernels-to-host: the host runtime's launcher for the shared
// mechanism (launch/KernelsToLaunches.h). The same kernels, names and
// launches as the GPU's, each built for a CPU core a block (HostMappings.h:
// vector loops sized for the caches); what the vector mappings do not
// serve falls back to the emitters written for both targets, on blocks of
// one thread (HostLaunchTarget).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "passes/gpu/flat/PointwiseKernels.h"
#include "passes/gpu/rows/RowKernels.h"
#include "passes/host/mappings/HostMappings.h"
#include "passes/gpu/attention/AttentionKernels.h"
#include "passes/launch/KernelsToLaunches.h"
#include "passes/launch/ScanKernels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace kfuse {
#define GEN_PASS_DEF_KFMAPKERNELSTOHOST
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;
using kfuse::kf::KernelOp;

namespace {

class HostLauncher final : public kfuse::launch::KernelLauncher {
public:
  explicit HostLauncher(unsigned vectorBits) : vectorBits(vectorBits) {}

  LogicalResult flat(RewriterBase &b, StringAttr name,
                     ArrayRef<linalg::GenericOp> ops) const override {
    return kfuse::host::mapPointwiseKernel(b, name, ops);
  }
  /// The host has one form of rows (a thread a row, through memory):
  /// kf-assign-kernel-mappings records no variant for them.
  LogicalResult row(RewriterBase &b, KernelOp kernel,
                    ArrayRef<linalg::LinalgOp> ops) const override {
    kfuse::host::mapRowKernel(b, kernel.getSymNameAttr(), ops, vectorBits);
    return success();
  }
  LogicalResult gridReduction(RewriterBase &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops,
                              FlatSymbolRefAttr ticket) const override {
    kfuse::host::mapGridReductionKernel(b, name, ops, ticket);
    return success();
  }
  /// The rows on one thread each, the final part on the last block's.
  LogicalResult rowChain(RewriterBase &b, KernelOp kernel, ArrayRef<linalg::LinalgOp> ops,
                         FlatSymbolRefAttr ticket) const override {
    return kfuse::gpu::mapRowChainKernel(b, kernel.getSymNameAttr(), ops, target,
                                         kfuse::kf::KernelVariant::ThroughMemory, ticket);
  }
  /// The host has one matmul design: kf-assign-kernel-mappings records no
  /// variant for it.
  LogicalResult matmul(RewriterBase &b, KernelOp kernel,
                       ArrayRef<linalg::LinalgOp> ops) const override {
    kfuse::host::mapMatmulKernel(b, kernel.getSymNameAttr(), ops, vectorBits);
    return success();
  }

  /// A tile of query rows a block, the keys' tiles staged in the thread's own buffer.
  LogicalResult attention(RewriterBase &b, StringAttr name,
                          ArrayRef<linalg::LinalgOp> ops) const override {
    return kfuse::gpu::mapAttentionKernel(b, name, ops, target);
  }

  /// The GPU's emitter, a block one thread: a band of rows a core.
  LogicalResult multiReduction(RewriterBase &b, StringAttr name, ArrayRef<linalg::LinalgOp> ops,
                               FlatSymbolRefAttr ticket) const override {
    return kfuse::gpu::mapMultiReductionKernel(b, name, ops, target, ticket);
  }

  /// A thread a line, f32 summed in f64 as PyTorch's CPU kernel does
  /// (launch/ScanKernels.h); along an outer dim, groups of adjacent lines
  /// as vectors (HostScan.cpp).
  LogicalResult scan(RewriterBase &b, StringAttr name,
                     ArrayRef<linalg::LinalgOp> ops) const override {
    if (succeeded(kfuse::host::mapScanKernelAsVectors(b, name, ops)))
      return success();
    return kfuse::launch::mapScanKernel(b, name, ops, target, kfuse::launch::ScanSum::Float64);
  }

private:
  kfuse::launch::HostLaunchTarget target;
  unsigned vectorBits; // the CPU's vector registers (the pass's vector-bits)
};

struct KfMapKernelsToHostPass : kfuse::impl::KfMapKernelsToHostBase<KfMapKernelsToHostPass> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorBits != 256 && vectorBits != 512) {
      getOperation()->emitError() << "kf-map-kernels-to-host: vector-bits must be 256 or 512, got "
                                  << unsigned(vectorBits);
      return signalPassFailure();
    }
    if (failed(kfuse::launch::mapKernelsToLaunches(
            getOperation(), "kf-map-kernels-to-host", HostLauncher(vectorBits),
            {&numFlat, &numRow, &numGridReduction, &numMatmul, &numSerial, &numRowChain,
             &numAttention, &numMultiReduction, &numScan})))
      signalPassFailure();
  }
};

} // namespace
