//===- Json.cpp - the embedded manifest as a tree -------------------------===//
//
// nlohmann's SAX interface builds the tree: its parser keeps its own stack
// (no recursion), and the handler refuses nesting deeper than kMaxDepth
// before anything that deep is built. Nothing here throws.
//
//===----------------------------------------------------------------------===//
#include "Json.h"

#include <nlohmann/json.hpp>

namespace kfuse::json {

const Value &Value::operator[](const std::string &key) const {
  static const Value null;
  auto it = object.find(key);
  return it == object.end() ? null : it->second;
}

namespace {
/// Arrays and objects nest at most this deep (see Json.h).
constexpr size_t kMaxDepth = 256;

class TreeBuilder : public nlohmann::json_sax<nlohmann::json> {
public:
  explicit TreeBuilder(Value &root) : root(root) {}
  std::string error;

  bool null() override { return add(Value()); }
  bool boolean(bool b) override {
    Value v;
    v.kind = Value::Bool;
    v.boolean = b;
    return add(std::move(v));
  }
  bool number_integer(number_integer_t n) override { return number(double(n)); }
  bool number_unsigned(number_unsigned_t n) override { return number(double(n)); }
  bool number_float(number_float_t n, const string_t &) override { return number(n); }
  bool string(string_t &s) override {
    Value v;
    v.kind = Value::String;
    v.string = std::move(s);
    return add(std::move(v));
  }
  bool binary(binary_t &) override { return add(Value()); } // not in JSON text
  bool start_object(std::size_t) override { return open(Value::Object); }
  bool key(string_t &k) override {
    pendingKey = std::move(k);
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(Value::Array); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string &,
                   const nlohmann::detail::exception &e) override {
    // "[json.exception.parse_error.101] parse error at line 1, column 5:
    // syntax error ..." without the bracketed id.
    std::string what = e.what();
    size_t close = what.find("] ");
    error = close == std::string::npos ? what : what.substr(close + 2);
    return false;
  }

private:
  Value &root;
  std::vector<Value *> open_; // the arrays and objects being filled
  std::string pendingKey;

  bool number(double n) {
    Value v;
    v.kind = Value::Number;
    v.number = n;
    return add(std::move(v));
  }
  /// Places `v` where the parser is; returns where it went.
  Value *place(Value v) {
    if (open_.empty()) {
      root = std::move(v);
      return &root;
    }
    Value &parent = *open_.back();
    if (parent.kind == Value::Array) {
      parent.array.push_back(std::move(v));
      return &parent.array.back();
    }
    Value &slot = parent.object[pendingKey];
    slot = std::move(v);
    return &slot;
  }
  bool add(Value v) { return place(std::move(v)), true; }
  bool open(Value::Kind kind) {
    if (open_.size() == kMaxDepth) {
      error = "arrays and objects nested deeper than " + std::to_string(kMaxDepth);
      return false;
    }
    Value v;
    v.kind = kind;
    open_.push_back(place(std::move(v)));
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }
};
} // namespace

bool parse(const std::string &text, Value &out, std::string &error) {
  out = Value();
  TreeBuilder builder(out);
  if (nlohmann::json::sax_parse(text, &builder))
    return true;
  error = builder.error.empty() ? "not JSON" : builder.error;
  return false;
}

} // namespace kfuse::json
