//===- Passes.h - kfuse passes and pipelines --------------------*- C++ -*-===//
#ifndef KFUSE_PASSES_PASSES_H
#define KFUSE_PASSES_PASSES_H

#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace kfuse {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

/// kf-decompose's rewrites, also run at the start of kf-to-linalg.
void populateKfDecomposePatterns(mlir::RewritePatternSet &patterns);

/// The stages of the GPU pipeline, each a prefix of the next.
enum class GpuStage { Linalg, Kernels, Gpu, Ptx, Llvm };

/// The textual pass pipeline (for `builtin.module`) from kf up to `until`.
/// With `hostKernels` (the CPU runtime) kernels the GPU mapping cannot
/// serve run as one serial launch instead of being refused.
std::string gpuPipeline(GpuStage until, llvm::StringRef chip,
                        llvm::StringRef fusion, unsigned blockSize,
                        bool hostKernels = false);

/// kf to LLVM for the host CPU through the kfuse runtime: the kernels of
/// the GPU pipeline as host functions, launched with the same mgpu* calls.
std::string hostRuntimePipeline(llvm::StringRef fusion, unsigned blockSize);

/// Registers the named pipelines (kf-cpu-pipeline), so kfuse-opt replays
/// exactly what the compiler runs.
void registerKfusePipelines();

} // namespace kfuse

#endif // KFUSE_PASSES_PASSES_H
