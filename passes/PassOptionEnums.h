//===- PassOptionEnums.h - the enum types of pass options ------*- C++ -*-===//
//
// The types of the enum options that Passes.td declares, here so that
// Passes.h (included by every pass) includes nothing from the folders that
// implement the passes: the include graph of passes/ then runs one way,
// from the features down to the declarations.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_PASSOPTIONENUMS_H
#define KFUSE_PASSES_PASSOPTIONENUMS_H

namespace kfuse::fusion {
/// The `fusion` option of kf-form-kernels, kf-kernel-report and the named
/// pipelines: `on`, or `off` for eager's boundaries (one kernel per op that
/// PyTorch launches). The other switches: fusion/FusionOptions.h.
enum class FusionMode { On, Off };
} // namespace kfuse::fusion

namespace kfuse::report {
/// The `format` option of kf-kernel-report: a table, one JSON document, or
/// a Graphviz drawing of the fused kernels.
enum class ReportFormat { Text, Json, Dot };
} // namespace kfuse::report

#endif // KFUSE_PASSES_PASSOPTIONENUMS_H
