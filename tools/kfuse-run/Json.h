//===- Json.h - the embedded manifest as a tree ----------------*- C++ -*-===//
//
// kfuse-run links no LLVM, so it cannot use llvm::json; nlohmann/json
// (header-only) parses, and this tree is what the manifest's readers walk:
// a missing member reads as null instead of throwing. Arrays and objects
// nest at most 256 deep: kfuse-compile's manifests nest 6 deep, and a
// library's manifest is untrusted input.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_TOOLS_KFUSE_RUN_JSON_H
#define KFUSE_TOOLS_KFUSE_RUN_JSON_H

#include <map>
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

/// Parses `text`; on failure returns false with what and where in `error`.
bool parse(const std::string &text, Value &out, std::string &error);

} // namespace kfuse::json

#endif // KFUSE_TOOLS_KFUSE_RUN_JSON_H
