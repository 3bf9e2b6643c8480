//===- ReportFile.cpp - kf-kernel-report's report-file, written safely ----===//
//
// The rules of kfuse-compile's outputs (passes/utils/OutputFile.h): a
// directory or the input is refused; a regular file is replaced whole,
// through a temporary renamed over it, so a failed write leaves the old one;
// a symlink stays and what it names is written the same way; a device or
// FIFO (/dev/stderr) is written through.
//
//===----------------------------------------------------------------------===//
#include "passes/report/ReportFile.h"
#include "passes/utils/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace fs = llvm::sys::fs;

namespace kfuse::report {

namespace {
std::string &toolOutput() {
  static std::string path;
  return path;
}

/// Where writeOutput would put `path`'s bytes: the file it names, through
/// symlinks, or, for a file not made yet, its directory's real path and
/// its name.
std::string destination(llvm::StringRef path) {
  llvm::SmallString<256> real;
  if (!fs::real_path(path, real))
    return real.str().str();
  if (fs::real_path(llvm::sys::path::parent_path(path).empty()
                        ? llvm::StringRef(".")
                        : llvm::sys::path::parent_path(path),
                    real))
    return path.str();
  llvm::sys::path::append(real, llvm::sys::path::filename(path));
  return real.str().str();
}

/// Whether `a` and `b` are one regular file (the same device and inode, or
/// the same destination when neither exists yet); devices, FIFOs and
/// stdout are written through, not replaced, and may be shared.
bool sameRegularFile(llvm::StringRef a, llvm::StringRef b) {
  fs::file_status sa, sb;
  bool ea = !fs::status(a, sa), eb = !fs::status(b, sb);
  if (ea && eb)
    return fs::is_regular_file(sa) && fs::equivalent(sa, sb);
  return !ea && !eb && destination(a) == destination(b);
}
} // namespace

void setToolOutput(llvm::StringRef path) { toolOutput() = path.str(); }

llvm::Error checkReportFile(llvm::StringRef path,
                            llvm::ArrayRef<std::string> inputs) {
  if (path.empty())
    return llvm::createStringError(
        "report-file needs a path (leave it out, or give -, for stdout)");
  // A directory is refused even when the IR came from stdin.
  if (llvm::Error e = checkOutputPath(path, "", "report-file"))
    return e;
  for (const std::string &input : inputs)
    if (llvm::Error e = checkOutputPath(path, input, "report-file"))
      return e;
  llvm::StringRef output = toolOutput();
  if (path != "-" && !output.empty() && output != "-" && sameRegularFile(path, output))
    return llvm::createStringError(
        "report-file " + path + " is also the output file (-o " + output +
        "); one would replace the other: give the report another path");
  return llvm::Error::success();
}

llvm::Error writeReportFile(llvm::StringRef path, llvm::StringRef contents) {
  if (llvm::Error e = writeOutput(path, contents))
    return llvm::createStringError("report-file: " + llvm::toString(std::move(e)));
  return llvm::Error::success();
}

llvm::Error renderSvg(llvm::StringRef dot, llvm::StringRef svg) {
  llvm::ErrorOr<std::string> graphviz = llvm::sys::findProgramByName("dot");
  if (!graphviz)
    return llvm::Error::success(); // Graphviz is optional
  auto notWritten = [&](const llvm::Twine &why) {
    return llvm::createStringError(svg + " not written: " + why);
  };
  llvm::SmallString<128> temp;
  if (std::error_code ec =
          fs::createUniqueFile(svg + "-%%%%%%.kfuse-tmp", temp))
    return notWritten(ec.message());
  std::string error;
  int status = llvm::sys::ExecuteAndWait(
      *graphviz, {*graphviz, "-Tsvg", dot, "-o", temp}, std::nullopt, {},
      /*SecondsToWait=*/60, /*MemoryLimit=*/0, &error);
  if (status != 0) {
    fs::remove(temp);
    return notWritten(*graphviz + " -Tsvg failed" +
                      (error.empty() ? "" : ": " + error));
  }
  if (std::error_code ec = fs::rename(temp, svg)) {
    fs::remove(temp);
    return notWritten(ec.message());
  }
  return llvm::Error::success();
}

} // namespace kfuse::report
