//===- ReportFile.cpp - kf-kernel-report's report-file, written safely ----===//
//
// The rules of kfuse-compile's outputs (tools/kfuse-compile/OutputFile.cpp,
// which the passes library cannot link): a directory or the input is
// refused; a regular file is replaced whole, through a temporary renamed
// over it, so a failed write leaves the old one; a symlink stays and what
// it names is written the same way; a device or FIFO (/dev/stderr) is
// written through.
//
//===----------------------------------------------------------------------===//
#include "passes/report/ReportFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace fs = llvm::sys::fs;

namespace kfuse::report {
namespace {

llvm::Error cannotWrite(llvm::StringRef path, const llvm::Twine &why) {
  return llvm::createStringError("cannot write report-file " + path + ": " +
                                 why);
}

llvm::Error writeThrough(llvm::StringRef path, llvm::StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, fs::OF_None);
  if (ec)
    return cannotWrite(path, ec.message());
  os << contents;
  os.close();
  if (os.has_error())
    return cannotWrite(path, os.error().message());
  return llvm::Error::success();
}

/// The temporary is removed on every failure, and on a crash (TempFile
/// registers it with the signal handlers).
llvm::Error replaceRegular(llvm::StringRef path, llvm::StringRef contents) {
  llvm::Expected<fs::TempFile> temp = fs::TempFile::create(
      path + "-%%%%%%.kfuse-tmp", fs::all_read | fs::all_write);
  if (!temp)
    return cannotWrite(path, llvm::toString(temp.takeError()));
  if (llvm::ErrorOr<fs::perms> old = fs::getPermissions(path))
    (void)fs::setPermissions(temp->FD, *old); // a replaced file keeps them
  llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
  os << contents;
  os.flush();
  if (os.has_error()) {
    std::string why = os.error().message();
    os.clear_error();
    llvm::consumeError(temp->discard());
    return cannotWrite(path, why);
  }
  if (llvm::Error e = temp->keep(path)) {
    std::string why = llvm::toString(std::move(e));
    llvm::consumeError(temp->discard());
    return cannotWrite(path, why);
  }
  return llvm::Error::success();
}

} // namespace

llvm::Error checkReportFile(llvm::StringRef path,
                            llvm::ArrayRef<std::string> inputs) {
  if (path.empty())
    return llvm::createStringError(
        "report-file needs a path (leave it out, or give -, for stdout)");
  if (path == "-")
    return llvm::Error::success();
  if (fs::is_directory(path))
    return llvm::createStringError("report-file " + path +
                                   " is a directory; give the path of a file");
  for (const std::string &input : inputs) {
    // fs::equivalent compares st_dev and st_ino of what both paths name.
    bool same = false;
    if (!fs::equivalent(input, path, same) && same)
      return llvm::createStringError(
          "report-file " + path +
          " is the input file; refusing to overwrite it");
  }
  return llvm::Error::success();
}

llvm::Error writeReportFile(llvm::StringRef path, llvm::StringRef contents) {
  fs::file_status link;
  std::error_code ec = fs::status(path, link, /*Follow=*/false);
  if (ec == llvm::errc::no_such_file_or_directory)
    return replaceRegular(path, contents);
  if (ec)
    return cannotWrite(path, ec.message());
  if (fs::is_regular_file(link))
    return replaceRegular(path, contents);
  if (fs::is_directory(link))
    return cannotWrite(path, "it is a directory");
  if (fs::is_symlink_file(link)) {
    llvm::SmallString<256> target;
    fs::file_status st;
    if (!fs::real_path(path, target) && !fs::status(target, st)) {
      if (fs::is_directory(st))
        return cannotWrite(path, "it links to a directory");
      if (fs::is_regular_file(st))
        return replaceRegular(target, contents);
    }
  }
  return writeThrough(path, contents);
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
