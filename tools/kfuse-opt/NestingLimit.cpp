//===- NestingLimit.cpp - refuse input nested too deep to parse -----------===//
#include "tools/kfuse-opt/NestingLimit.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

namespace kfuse {

std::optional<size_t> findExcessiveNesting(llvm::StringRef text,
                                           unsigned limit) {
  unsigned depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    char next = i + 1 < e ? text[i + 1] : '\0';
    switch (c) {
    case '"': // a string: skip to its unescaped end
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '/': // a comment: skip to the end of the line
      if (next == '/')
        while (i < e && text[i] != '\n')
          ++i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > limit)
        return i;
      break;
    case '-': // `->`: the arrow of a function type, not a bracket
      if (next == '>')
        ++i;
      break;
    case '>':
      if (next == '=') // `>=` of an integer set
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      // Unbalanced text is the parser's to report; only depth counts here.
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

bool reportExcessiveNesting(llvm::SourceMgr &sourceMgr, unsigned bufferId,
                            unsigned limit) {
  llvm::StringRef text = sourceMgr.getMemoryBuffer(bufferId)->getBuffer();
  std::optional<size_t> at = findExcessiveNesting(text, limit);
  if (!at)
    return false;
  sourceMgr.PrintMessage(
      llvm::SMLoc::getFromPointer(text.data() + *at), llvm::SourceMgr::DK_Error,
      "nesting deeper than " + llvm::Twine(limit) +
          " levels of brackets, braces, parentheses or angle brackets: "
          "refused (parsing it would overflow the stack)");
  return true;
}

} // namespace kfuse
