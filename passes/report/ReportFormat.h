//===- ReportFormat.h - how kf-kernel-report prints -------------*- C++ -*-===//
#ifndef KFUSE_PASSES_REPORT_REPORTFORMAT_H
#define KFUSE_PASSES_REPORT_REPORTFORMAT_H

namespace kfuse::report {

/// The `format` option of kf-kernel-report: a table, or one JSON document.
enum class ReportFormat { Text, Json };

} // namespace kfuse::report

#endif // KFUSE_PASSES_REPORT_REPORTFORMAT_H
