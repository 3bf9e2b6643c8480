//===- KfMapKernelsToGpu.cpp - each kernel as its gpu.launch ---------------===//
//
// One rewrite pattern per mapping kind: a bufferized kf.kernel (no
// results, its buffers allocated before it: kf-hoist-kernel-buffers) whose
// mapping kf-assign-kernel-mappings decided on tensors becomes its launch,
// named after it, one launch a kernel; the emitters (PointwiseKernels,
// RowKernels, LastBlockReductions, MatmulKernels) write the launch's body
// and do not analyse the kernel again. A kernel whose last block finishes
// the work of the others (grid_reduction, row_chain) gets its ticket
// counter here, a memref.global `<kernel>_ticket` of the module.
// Deallocation ran before on the whole kernel, so every free is already
// after it.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"
#include "passes/gpu/KfMapKernelsToGpu.h"
#include "passes/gpu/matmul/MatmulKernels.h"
#include "passes/gpu/flat/PointwiseKernels.h"
#include "passes/gpu/rows/RowKernels.h"
#include "passes/host/HostMappings.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace kfuse {
#define GEN_PASS_DEF_KFMAPKERNELSTOGPU
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;
using kfuse::kf::KernelMapping;
using kfuse::kf::KernelOp;

namespace {

/// Fills as generics without inputs (the value used from above), so that
/// the flat mapping runs them.
SmallVector<linalg::GenericOp> generalizeFills(RewriterBase &rewriter,
                                               ArrayRef<linalg::LinalgOp> ops) {
  SmallVector<linalg::GenericOp> generics;
  for (linalg::LinalgOp op : ops) {
    auto fill = dyn_cast<linalg::FillOp>(op.getOperation());
    if (!fill) {
      generics.push_back(cast<linalg::GenericOp>(op.getOperation()));
      continue;
    }
    rewriter.setInsertionPoint(fill);
    Value dest = fill.getDpsInits()[0], value = fill.getInputs()[0];
    unsigned rank = cast<MemRefType>(dest.getType()).getRank();
    auto generic = linalg::GenericOp::create(
        rewriter, fill.getLoc(), TypeRange(), ValueRange(), dest,
        rewriter.getMultiDimIdentityMap(rank),
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location loc, ValueRange) {
          linalg::YieldOp::create(nb, loc, value);
        });
    generic->setDiscardableAttrs(fill->getDiscardableAttrDictionary());
    rewriter.eraseOp(fill);
    generics.push_back(generic);
  }
  return generics;
}

/// What all the patterns share: the kernel has this pattern's mapping and
/// is bufferized; its linalg ops are collected in program order; the
/// launches are built before the kernel, which is then erased.
template <KernelMapping kMapping>
struct KernelToLaunch : OpRewritePattern<KernelOp> {
  KernelToLaunch(MLIRContext *ctx, const kfuse::KfMapKernelsToGpuOptions &options)
      : OpRewritePattern<KernelOp>(ctx), options(options) {}

  LogicalResult matchAndRewrite(KernelOp kernel,
                                PatternRewriter &rewriter) const final {
    if (kernel.getMapping() != kMapping || kernel->getNumResults())
      return failure();
    SmallVector<linalg::LinalgOp> ops;
    for (Operation &op : kernel.getBody().front().without_terminator()) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      if (!linalgOp || !linalgOp.hasPureBufferSemantics())
        return op.emitError("kf-map-kernels-to-gpu: kernel '")
               << kernel.getSymName() << "' holds a " << op.getName().getStringRef()
               << ", which its launch cannot run";
      ops.push_back(linalgOp);
    }
    // Canonicalization on buffers erases ops that iterate over nothing (a
    // static 0 dim): a kernel with none left launches nothing.
    if (ops.empty()) {
      rewriter.eraseOp(kernel);
      return success();
    }
    rewriter.setInsertionPoint(kernel);
    constexpr bool kReduces = kMapping == KernelMapping::Row ||
                              kMapping == KernelMapping::GridReduction ||
                              kMapping == KernelMapping::RowChain ||
                              kMapping == KernelMapping::Matmul;
    if (kReduces && lostItsReduction(ops)) {
      if (failed(launchFlat(kernel, ops, rewriter)))
        return failure();
    } else if (failed(emit(kernel, ops, rewriter))) {
      return failure();
    }
    rewriter.eraseOp(kernel);
    return success();
  }

  virtual LogicalResult emit(KernelOp kernel, ArrayRef<linalg::LinalgOp> ops,
                             PatternRewriter &rewriter) const = 0;

  /// A reduction or matmul kernel that lost its reduction: over an empty
  /// dim (a static 0, or K = 0) it iterates over nothing, and upstream's
  /// canonicalization on buffers erases it (EraseDeadLinalgOp). What is
  /// left, the fill of its result and the ops after it, runs flat.
  static bool lostItsReduction(ArrayRef<linalg::LinalgOp> ops) {
    return llvm::none_of(ops, [](linalg::LinalgOp op) {
      return op.getNumReductionLoops() > 0;
    });
  }
  LogicalResult launchFlat(KernelOp kernel, ArrayRef<linalg::LinalgOp> ops,
                           PatternRewriter &rewriter) const {
    SmallVector<linalg::GenericOp> generics = generalizeFills(rewriter, ops);
    rewriter.setInsertionPoint(kernel);
    if (options.host)
      return kfuse::host::mapPointwiseKernel(rewriter, kernel.getSymNameAttr(), generics);
    return kfuse::gpu::mapPointwiseKernel(rewriter, kernel.getSymNameAttr(),
                                          generics, options.blockSize,
                                          options.vectorWidth);
  }

  kfuse::KfMapKernelsToGpuOptions options;
};

/// Pointwise and transpose kernels: the iteration space flattened,
/// `vector-width` elements a thread.
struct FlatKernelToLaunch : KernelToLaunch<KernelMapping::Flat> {
  using KernelToLaunch::KernelToLaunch;
  LogicalResult emit(KernelOp kernel, ArrayRef<linalg::LinalgOp> ops,
                     PatternRewriter &rewriter) const override {
    for (linalg::LinalgOp op : ops)
      if (!isa<linalg::GenericOp, linalg::FillOp>(op.getOperation()))
        return op->emitError("kf-map-kernels-to-gpu: kernel '")
               << kernel.getSymName() << "' holds a "
               << op->getName().getStringRef() << ", not a pointwise generic";
    // A small reduction's accumulator fill runs as an op over its result.
    return launchFlat(kernel, ops, rewriter);
  }
};

/// Row kernels: a block per row.
struct RowKernelToLaunch : KernelToLaunch<KernelMapping::Row> {
  using KernelToLaunch::KernelToLaunch;
  LogicalResult emit(KernelOp kernel, ArrayRef<linalg::LinalgOp> ops,
                     PatternRewriter &rewriter) const override {
    if (options.host)
      kfuse::host::mapRowKernel(rewriter, kernel.getSymNameAttr(), ops);
    else
      kfuse::gpu::mapRowKernel(rewriter, kernel.getSymNameAttr(), ops,
                               options.blockSize, /*host=*/false);
    return success();
  }
};

/// The ticket counters of the kernels that have one, by kernel.
using Tickets = llvm::DenseMap<Operation *, FlatSymbolRefAttr>;

/// Full reductions: one launch, the last block combines the partials.
struct GridReductionKernelToLaunch : KernelToLaunch<KernelMapping::GridReduction> {
  GridReductionKernelToLaunch(MLIRContext *ctx, const kfuse::KfMapKernelsToGpuOptions &options,
                              const Tickets &tickets)
      : KernelToLaunch(ctx, options), tickets(tickets) {}
  LogicalResult emit(KernelOp kernel, ArrayRef<linalg::LinalgOp> ops,
                     PatternRewriter &rewriter) const override {
    if (options.host)
      kfuse::host::mapGridReductionKernel(rewriter, kernel.getSymNameAttr(), ops,
                                          tickets.lookup(kernel));
    else
      kfuse::gpu::mapGridReductionKernel(rewriter, kernel.getSymNameAttr(), ops,
                                         options.blockSize, /*host=*/false,
                                         tickets.lookup(kernel));
    return success();
  }
  const Tickets &tickets;
};

/// Row chains: a block per row, the last block runs the final reduction.
struct RowChainKernelToLaunch : KernelToLaunch<KernelMapping::RowChain> {
  RowChainKernelToLaunch(MLIRContext *ctx, const kfuse::KfMapKernelsToGpuOptions &options,
                         const Tickets &tickets)
      : KernelToLaunch(ctx, options), tickets(tickets) {}
  LogicalResult emit(KernelOp kernel, ArrayRef<linalg::LinalgOp> ops,
                     PatternRewriter &rewriter) const override {
    return kfuse::gpu::mapRowChainKernel(rewriter, kernel.getSymNameAttr(), ops,
                                         options.blockSize, options.host,
                                         tickets.lookup(kernel));
  }
  const Tickets &tickets;
};

/// Matmul kernels: a block per tile of the result (MatmulKernels.h), as
/// the variant kf-assign-kernel-mappings chose.
struct MatmulKernelToLaunch : KernelToLaunch<KernelMapping::Matmul> {
  using KernelToLaunch::KernelToLaunch;
  LogicalResult emit(KernelOp kernel, ArrayRef<linalg::LinalgOp> ops,
                     PatternRewriter &rewriter) const override {
    if (options.host) {
      kfuse::host::mapMatmulKernel(rewriter, kernel.getSymNameAttr(), ops);
      return success();
    }
    std::optional<kfuse::kf::KernelVariant> variant = kernel.getVariant();
    if (!variant)
      return kernel.emitError("kf-map-kernels-to-gpu: matmul kernel '")
             << kernel.getSymName()
             << "' has no variant (kf-assign-kernel-mappings chooses it)";
    kfuse::gpu::mapMatmulKernel(rewriter, kernel.getSymNameAttr(), ops, /*host=*/false,
                                *variant);
    return success();
  }
};

/// Kernels no mapping serves (host runtime only): one launch of one thread
/// running the ops as they are.
struct SerialKernelToLaunch : KernelToLaunch<KernelMapping::Serial> {
  using KernelToLaunch::KernelToLaunch;
  LogicalResult emit(KernelOp kernel, ArrayRef<linalg::LinalgOp> ops,
                     PatternRewriter &rewriter) const override {
    kfuse::gpu::mapSerialKernel(rewriter, kernel.getSymNameAttr(), ops);
    return success();
  }
};

struct KfMapKernelsToGpuPass
    : kfuse::impl::KfMapKernelsToGpuBase<KfMapKernelsToGpuPass> {
  using Base::Base;

  /// Built by a pipeline from options it checked (checkPipelineOptions):
  /// nothing to check again.
  bool optionsChecked = false;

  LogicalResult initialize(MLIRContext *ctx) override {
    if (optionsChecked)
      return success();
    if (blockSize == 0 || blockSize > 1024 || blockSize % 32 != 0)
      return emitError(UnknownLoc::get(ctx))
             << "kf-map-kernels-to-gpu: block-size must be a multiple of 32 "
                "from 32 to 1024, got "
             << static_cast<unsigned>(blockSize);
    return success();
  }

  void runOnOperation() override {
    bool ready = true;
    getOperation()->walk([&](KernelOp kernel) {
      std::optional<KernelMapping> mapping = kernel.getMapping();
      if (!mapping) {
        kernel.emitError("kf-map-kernels-to-gpu: kernel '")
            << kernel.getSymName()
            << "' has no mapping (kf-assign-kernel-mappings decides it)";
        ready = false;
      } else if (kernel->getNumResults()) {
        kernel.emitError("kf-map-kernels-to-gpu: kernel '")
            << kernel.getSymName()
            << "' is not bufferized (one-shot-bufferize, then "
               "kf-hoist-kernel-buffers)";
        ready = false;
      } else {
        countKernel(*mapping);
      }
    });
    if (!ready)
      return signalPassFailure();
    kfuse::KfMapKernelsToGpuOptions options;
    options.blockSize = blockSize;
    options.vectorWidth = vectorWidth;
    options.host = host;
    Tickets tickets = createTickets();
    RewritePatternSet patterns(&getContext());
    patterns.add<FlatKernelToLaunch, RowKernelToLaunch, MatmulKernelToLaunch,
                 SerialKernelToLaunch>(&getContext(), options);
    patterns.add<GridReductionKernelToLaunch, RowChainKernelToLaunch>(&getContext(), options,
                                                                      tickets);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    kfuse::kf::removeBoundaries(getOperation()); // the kernels are launches
    eraseUnusedBuffers();
    // A pattern that refused its kernel said why; the kernel is still here.
    if (getOperation()->walk([](KernelOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      signalPassFailure();
  }

  /// Buffers no launch touches any more: an intermediate that a mapping
  /// keeps on chip (a softmax's exp, a layer_norm's x - mean) was allocated
  /// for the kernel on tensors and is now only freed. Erased with its
  /// deallocs, so that the device allocates nothing it never uses.
  void eraseUnusedBuffers() {
    SmallVector<memref::AllocOp> unused;
    getOperation()->walk([&](memref::AllocOp alloc) {
      if (llvm::all_of(alloc->getUsers(), [](Operation *user) {
            return isa<memref::DeallocOp>(user);
          }))
        unused.push_back(alloc);
    });
    for (memref::AllocOp alloc : unused) {
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        user->erase();
      alloc->erase();
    }
  }

  /// A counter for each kernel whose last block finishes the work: one
  /// i32, 0 between launches (LastBlockReductions.cpp says what this
  /// assumes). Outlining copies it into the gpu.module (a PTX .global); the
  /// host runtime and the emulation use this one.
  Tickets createTickets() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    OpBuilder b(&getContext());
    Tickets tickets;
    module.walk([&](KernelOp kernel) {
      std::optional<KernelMapping> mapping = kernel.getMapping();
      if (mapping != KernelMapping::GridReduction && mapping != KernelMapping::RowChain)
        return;
      MemRefType type = kfuse::gpu::ticketType(&getContext());
      auto global = memref::GlobalOp::create(
          b, kernel.getLoc(), (kernel.getSymName() + "_ticket").str(),
          b.getStringAttr("private"), type,
          DenseElementsAttr::get(RankedTensorType::get({1}, b.getI32Type()),
                                 b.getI32IntegerAttr(0).getValue()),
          /*constant=*/false, /*alignment=*/nullptr);
      symbols.insert(global, module.getBody()->begin()); // renamed if taken
      tickets[kernel] = FlatSymbolRefAttr::get(global.getSymNameAttr());
    });
    return tickets;
  }

  void countKernel(KernelMapping mapping) {
    switch (mapping) {
    case KernelMapping::Flat: ++numFlat; break;
    case KernelMapping::Row: ++numRow; break;
    case KernelMapping::GridReduction: ++numGridReduction; break;
    case KernelMapping::RowChain: ++numRowChain; break;
    case KernelMapping::Matmul: ++numMatmul; break;
    case KernelMapping::Serial: ++numSerial; break;
    }
  }
};

} // namespace

std::unique_ptr<Pass>
kfuse::gpu::createCheckedKfMapKernelsToGpu(const KfMapKernelsToGpuOptions &options) {
  auto pass = std::make_unique<KfMapKernelsToGpuPass>(options);
  pass->optionsChecked = true;
  return pass;
}
