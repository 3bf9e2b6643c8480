//===- Passes.h - kfuse passes ---------------------------------*- C++ -*-===//
#ifndef KFUSE_PASSES_PASSES_H
#define KFUSE_PASSES_PASSES_H

#include "mlir/Pass/Pass.h"
#include "passes/PassOptionEnums.h"

namespace kfuse {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

/// kf-form-kernels and kf-kernel-report as kfuse-opt registers them and the
/// pipelines run them: every kernel they form is checked against the GPU
/// mappings (gpu::queryKernelMapping, bound in pipelines/Pipelines.cpp). The passes
/// with another query, or none: fusion/KfFormKernels.h and
/// report/KernelReport.h.
std::unique_ptr<mlir::Pass>
createKfFormKernels(const KfFormKernelsOptions &options = {});
std::unique_ptr<mlir::Pass>
createKfKernelReport(const KfKernelReportOptions &options = {});

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

/// kf-decompose's rewrites, also run at the start of kf-to-linalg;
/// `f64Moments` as kf-decompose's option.
void populateKfDecomposePatterns(mlir::RewritePatternSet &patterns, bool f64Moments = false);

/// The named pipelines (kf-cpu-pipeline, kf-gpu-pipeline,
/// kf-host-runtime-pipeline) and how they are built: passes/pipelines/Pipelines.h.
void registerKfusePipelines();

} // namespace kfuse

#endif // KFUSE_PASSES_PASSES_H
