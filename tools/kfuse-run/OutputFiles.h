//===- OutputFiles.h - output files written all together or not at all -*- C++ -*-===//
//
// A tool's outputs are committed at its end, together:
//  - a regular file (or a path that does not exist yet) is written to a
//    temporary file in the same directory and renamed over it, so that it
//    is whole or untouched; its permissions are kept;
//  - a symbolic link is followed: the file it names is written (or
//    replaced), the link stays;
//  - anything else (/dev/null, /dev/full, a FIFO, a terminal) is written
//    through, never replaced by a regular file.
// Nothing is renamed until every regular output is staged and every
// written-through one is written; a failure leaves the regular outputs as
// they were. What would make a rename fail after the staging (an immutable
// or append-only file or directory, another user's file in a sticky
// directory) is checked for every output first, and SIGINT, SIGTERM,
// SIGHUP and SIGQUIT wait until the last rename is done. Plain POSIX and
// C++ only (no LLVM), so that any tool can use it.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_TOOLS_KFUSE_RUN_OUTPUTFILES_H
#define KFUSE_TOOLS_KFUSE_RUN_OUTPUTFILES_H

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kfuse::run {

/// One file to write: `path` as the user gave it, and its contents in
/// pieces (views that must stay valid until writeOutputs returns).
struct PendingOutput {
  std::string path;
  std::vector<std::string_view> pieces;
};

/// Refuses `path` (named `what` in the error, e.g. "--output result0") as
/// an output when it is a directory, when it is the same file, compared
/// by device and inode through links, as one of `kept` (what the user gave
/// as input: label and path), or when it could not be replaced (above).
bool checkOutputPath(const std::string &what, const std::string &path,
                     const std::vector<std::pair<std::string, std::string>> &kept,
                     std::string &error);

/// True when `a` and `b` name the same regular file or will (the same
/// directory and name after following links): two outputs that would
/// overwrite each other.
bool sameOutputFile(const std::string &a, const std::string &b);

/// Writes every file in `outputs`, or leaves every regular one untouched;
/// on failure says which and why in `error`.
bool writeOutputs(const std::vector<PendingOutput> &outputs, std::string &error);

} // namespace kfuse::run

#endif // KFUSE_TOOLS_KFUSE_RUN_OUTPUTFILES_H
