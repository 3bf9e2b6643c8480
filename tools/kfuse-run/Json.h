//===- Json.h - a small JSON reader for the embedded manifest ---*- C++ -*-===//
//
// kfuse-run links no LLVM, so it cannot use llvm::json; the manifest is
// small and written by kfuse-compile, and this reads all of JSON but
// \u escapes beyond ASCII.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_TOOLS_KFUSE_RUN_JSON_H
#define KFUSE_TOOLS_KFUSE_RUN_JSON_H

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kfuse::json {

struct Value {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Value> array;
  std::map<std::string, Value> object;

  /// Member `key` of an object (a null value when absent).
  const Value &operator[](const std::string &key) const;
  bool isNull() const { return kind == Null; }
};

/// Parses `text`; on failure returns false with the offset in `error`.
bool parse(const std::string &text, Value &out, std::string &error);

/// `s` as a JSON string literal.
std::string quote(const std::string &s);

} // namespace kfuse::json

#endif // KFUSE_TOOLS_KFUSE_RUN_JSON_H
