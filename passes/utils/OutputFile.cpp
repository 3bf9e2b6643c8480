//===- OutputFile.cpp - writing outputs safely ----------------------------===//
#include "passes/utils/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace fs = llvm::sys::fs;

namespace kfuse {
namespace {

llvm::Error cannotWrite(llvm::StringRef path, const llvm::Twine &why) {
  return llvm::createStringError("cannot write " + path + ": " + why);
}

/// Writes into what stands at `path` (a device, a FIFO, a dangling
/// symlink's target), truncating it, without replacing it.
llvm::Error writeThrough(llvm::StringRef path,
                                        llvm::StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, fs::OF_None);
  if (ec)
    return cannotWrite(path, ec.message());
  os << contents;
  os.close();
  if (os.has_error()) {
    // Cleared once said: left in the stream, the error would end the
    // process in its destructor ("LLVM ERROR: IO failure"), unnamed.
    std::string why = os.error().message();
    os.clear_error();
    return cannotWrite(path, why);
  }
  return llvm::Error::success();
}

/// Replaces the regular file `path` (or creates it) whole: the contents go
/// to a temporary beside it, renamed over it once complete. The temporary
/// is removed on every failure, and on a crash (TempFile registers it with
/// the signal handlers).
llvm::Error replaceRegular(llvm::StringRef path, llvm::StringRef contents,
                           bool executable) {
  unsigned mode = executable ? fs::all_all : fs::all_read | fs::all_write;
  llvm::Expected<fs::TempFile> temp =
      fs::TempFile::create(path + "-%%%%%%.kfuse-tmp", mode);
  if (!temp)
    return cannotWrite(path, llvm::toString(temp.takeError()));
  // A file being replaced keeps its permissions.
  if (llvm::ErrorOr<fs::perms> old = fs::getPermissions(path))
    (void)fs::setPermissions(temp->FD, *old);
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

llvm::Error checkOutputPath(llvm::StringRef output, llvm::StringRef input,
                            llvm::StringRef option) {
  if (output == "-")
    return llvm::Error::success();
  if (fs::is_directory(output))
    return llvm::createStringError(option + " " + output +
                                   " is a directory; give the path of a file");
  // fs::equivalent compares st_dev and st_ino of what both paths name.
  bool same = false;
  if (!fs::equivalent(input, output, same) && same)
    return llvm::createStringError(option + " " + output +
                                   " is the input file; refusing to overwrite it");
  return llvm::Error::success();
}

llvm::Error writeOutput(llvm::StringRef path, llvm::StringRef contents,
                        bool executable) {
  if (path == "-") {
    llvm::outs() << contents;
    llvm::outs().flush();
    if (llvm::outs().has_error()) {
      std::string why = llvm::outs().error().message();
      llvm::outs().clear_error();
      return cannotWrite("stdout", why);
    }
    return llvm::Error::success();
  }
  fs::file_status link;
  std::error_code ec = fs::status(path, link, /*Follow=*/false);
  if (ec == llvm::errc::no_such_file_or_directory)
    return replaceRegular(path, contents, executable);
  if (ec)
    return cannotWrite(path, ec.message());
  if (fs::is_regular_file(link))
    return replaceRegular(path, contents, executable);
  if (fs::is_directory(link))
    return cannotWrite(path, "it is a directory");
  if (fs::is_symlink_file(link)) {
    // A symlink stays; what it names is written. A regular file there is
    // replaced as above, at its real path.
    llvm::SmallString<256> target;
    fs::file_status st;
    if (!fs::real_path(path, target) && !fs::status(target, st)) {
      if (fs::is_directory(st))
        return cannotWrite(path, "it links to a directory");
      if (fs::is_regular_file(st))
        return replaceRegular(target, contents, executable);
    }
  }
  return writeThrough(path, contents);
}

} // namespace kfuse
