//===- NestingLimit.h - refuse input nested too deep to parse ---*- C++ -*-===//
//
// MLIR's parser recurses once per level of nested attributes, types and
// regions, and so do the verifier, the printer and the passes: 10,000
// nested `[` overflowed the stack of every kfuse tool (a crash, not an
// error). The tools scan the text first and refuse, at the first bracket
// too deep, what nests deeper than any program needs.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_TOOLS_KFUSE_OPT_NESTINGLIMIT_H
#define KFUSE_TOOLS_KFUSE_OPT_NESTINGLIMIT_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace kfuse {

/// The deepest nesting accepted: far beyond real programs (a kf function
/// nests 3 or 4 levels). A 1,000-deep array attribute, or 500 regions one
/// in another (two levels each), parse in under 2 MiB of stack: the limit
/// leaves ample room in the 8 MiB of the main thread and of MLIR's workers.
constexpr unsigned kMaxNesting = 1000;

/// The offset of the first opening bracket of `text` that is nested deeper
/// than `limit` levels, counting ( [ { and < (not inside strings or `//`
/// comments; `->` and `>=` close nothing), or nothing.
std::optional<size_t> findExcessiveNesting(llvm::StringRef text,
                                           unsigned limit = kMaxNesting);

/// Reports, through `sourceMgr` (file:line:col: error: ...), when its
/// buffer `bufferId` nests deeper than `limit`; true when it does.
bool reportExcessiveNesting(llvm::SourceMgr &sourceMgr, unsigned bufferId,
                            unsigned limit = kMaxNesting);

} // namespace kfuse

#endif // KFUSE_TOOLS_KFUSE_OPT_NESTINGLIMIT_H
