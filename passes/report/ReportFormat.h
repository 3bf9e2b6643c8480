//===- ReportFormat.h - how kf-kernel-report prints -------------*- C++ -*-===//
#ifndef KFUSE_PASSES_REPORT_REPORTFORMAT_H
#define KFUSE_PASSES_REPORT_REPORTFORMAT_H

namespace kfuse::report {

/// The `format` option of kf-kernel-report: a table, one JSON document, or
/// a Graphviz drawing of the fused kernels.
enum class ReportFormat { Text, Json, Dot };

} // namespace kfuse::report

#endif // KFUSE_PASSES_REPORT_REPORTFORMAT_H
