//===- Passes.h - kfuse passes ---------------------------------*- C++ -*-===//
#ifndef KFUSE_PASSES_PASSES_H
#define KFUSE_PASSES_PASSES_H

#include "mlir/Pass/Pass.h"
// The enum options of kf-form-kernels and kf-kernel-report.
#include "passes/fusion/FusionOptions.h"
#include "passes/report/ReportFormat.h"

namespace kfuse {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

/// kf-decompose's rewrites, also run at the start of kf-to-linalg;
/// `f64Moments` as kf-decompose's option.
void populateKfDecomposePatterns(mlir::RewritePatternSet &patterns, bool f64Moments = false);

/// The named pipelines (kf-cpu-pipeline, kf-gpu-pipeline,
/// kf-host-runtime-pipeline) and how they are built: passes/Pipelines.h.
void registerKfusePipelines();

} // namespace kfuse

#endif // KFUSE_PASSES_PASSES_H
