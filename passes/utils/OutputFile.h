//===- OutputFile.h - writing outputs safely -------------------*- C++ -*-===//
//
// What stands at an output path is never lost to a failed run, and never
// replaced by something of another kind: a regular file (or a path where
// nothing stands) is replaced whole, through a temporary beside it renamed
// over it; a symlink is written through (what it points to is replaced the
// same way when it is a regular file); a device or a FIFO (/dev/null,
// /dev/stdout) is written into, never replaced by a regular file.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_UTILS_OUTPUTFILE_H
#define KFUSE_PASSES_UTILS_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace kfuse {

/// Refuses an `output` that cannot be written for the input `input`, before any
/// work: it is a directory, or it is the input itself (the same device and
/// inode, however the two are spelled, through symlinks and hard links).
/// `option` names the output in the message.
llvm::Error checkOutputPath(llvm::StringRef output, llvm::StringRef input,
                            llvm::StringRef option = "-o");

/// Writes `contents` to `path` ("-" is stdout) as the header describes.
/// `executable` asks for mode 0777 (less the umask) for a new file; a
/// replaced regular file keeps its mode.
llvm::Error writeOutput(llvm::StringRef path, llvm::StringRef contents,
                        bool executable = false);

} // namespace kfuse

#endif // KFUSE_PASSES_UTILS_OUTPUTFILE_H
