//===- ElfCheck.h - an ELF file whole before dlopen maps it ------*- C++ -*-===//
//
// dlopen maps a library's segments as the headers say; a file cut short
// maps pages beyond its end, and the first touch of one (by the loader
// itself) kills the process with SIGBUS. The headers are checked against
// the file's size first, so that a truncated library is an error instead.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_RUNTIME_ELFCHECK_H
#define KFUSE_RUNTIME_ELFCHECK_H

#include <string>

namespace kfuse::rt {

/// True when `path` is an ELF file (32 or 64 bits, either byte order of
/// the host) whose program headers, every segment's file range, the
/// section header table and every section's contents lie within the file;
/// otherwise says what lies beyond it (or why it is not ELF) in `why`.
bool checkElfFile(const std::string &path, std::string &why);

} // namespace kfuse::rt

#endif // KFUSE_RUNTIME_ELFCHECK_H
