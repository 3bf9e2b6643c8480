//===- ReportFile.h - where kf-kernel-report writes its report --*- C++ -*-===//
#ifndef KFUSE_PASSES_REPORT_REPORTFILE_H
#define KFUSE_PASSES_REPORT_REPORTFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace kfuse::report {

/// Refuses an empty path, a directory, any of the files in `inputs` (the
/// files the IR was read from) and the tool's own output (setToolOutput)
/// before any work is done.
llvm::Error checkReportFile(llvm::StringRef path,
                            llvm::ArrayRef<std::string> inputs);

/// The file the tool running the pass writes its IR to (kfuse-opt's -o;
/// "-" or "" for none): report-file may not be that file, by any of its
/// names, or one of the two would be lost.
void setToolOutput(llvm::StringRef path);

/// Writes `contents` to `path` whole or not at all (see ReportFile.cpp).
llvm::Error writeReportFile(llvm::StringRef path, llvm::StringRef contents);

/// Renders the DOT file `dot` to `svg` with Graphviz's `dot`, through a
/// temporary renamed over `svg`; nothing when no `dot` is on PATH. An
/// error says why no picture was written.
llvm::Error renderSvg(llvm::StringRef dot, llvm::StringRef svg);

} // namespace kfuse::report

#endif // KFUSE_PASSES_REPORT_REPORTFILE_H
