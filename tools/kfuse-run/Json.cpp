//===- Json.cpp - a small JSON reader -------------------------------------===//
#include "Json.h"

#include <cstdio>
#include <cstdlib>

namespace kfuse::json {

const Value &Value::operator[](const std::string &key) const {
  static const Value null;
  auto it = object.find(key);
  return it == object.end() ? null : it->second;
}

namespace {
/// Arrays and objects nest at most this deep: the reader recurses, and a
/// manifest of 200,000 '[' must not overflow the stack. kfuse-compile's
/// manifests nest 6 deep.
constexpr unsigned kMaxDepth = 256;

struct Parser {
  const std::string &s;
  size_t i = 0;
  std::string error;
  unsigned depth = 0;

  void space() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r'))
      ++i;
  }
  bool failAt(const char *what) {
    error = std::string(what) + " at offset " + std::to_string(i);
    return false;
  }
  bool literal(const char *word) {
    size_t n = std::char_traits<char>::length(word);
    if (s.compare(i, n, word) != 0)
      return failAt("unexpected text");
    i += n;
    return true;
  }
  bool string(std::string &out) {
    ++i; // opening quote
    while (i < s.size() && s[i] != '"') {
      char c = s[i++];
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (i >= s.size())
        break;
      char e = s[i++];
      switch (e) {
      case 'n': out.push_back('\n'); break;
      case 't': out.push_back('\t'); break;
      case 'r': out.push_back('\r'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'u': {
        if (i + 4 > s.size())
          return failAt("bad escape");
        unsigned code = std::strtoul(s.substr(i, 4).c_str(), nullptr, 16);
        out.push_back(code < 128 ? char(code) : '?');
        i += 4;
        break;
      }
      default: out.push_back(e);
      }
    }
    if (i >= s.size())
      return failAt("unterminated string");
    ++i;
    return true;
  }
  bool value(Value &v) {
    space();
    if (i >= s.size())
      return failAt("unexpected end");
    char c = s[i];
    if (c == '{' || c == '[') {
      if (depth == kMaxDepth)
        return failAt("arrays and objects nested deeper than 256");
      ++depth;
      bool ok = container(v, c);
      --depth;
      return ok;
    }
    return scalar(v, c);
  }
  bool container(Value &v, char c) {
    if (c == '{') {
      v.kind = Value::Object;
      ++i;
      space();
      if (i < s.size() && s[i] == '}')
        return ++i, true;
      for (;;) {
        space();
        std::string key;
        if (i >= s.size() || s[i] != '"' || !string(key))
          return error.empty() ? failAt("expected a key") : false;
        space();
        if (i >= s.size() || s[i++] != ':')
          return failAt("expected ':'");
        if (!value(v.object[key]))
          return false;
        space();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        if (i < s.size() && s[i] == '}')
          return ++i, true;
        return failAt("expected ',' or '}'");
      }
    }
    if (c == '[') {
      v.kind = Value::Array;
      ++i;
      space();
      if (i < s.size() && s[i] == ']')
        return ++i, true;
      for (;;) {
        v.array.emplace_back();
        if (!value(v.array.back()))
          return false;
        space();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        if (i < s.size() && s[i] == ']')
          return ++i, true;
        return failAt("expected ',' or ']'");
      }
    }
    return false;
  }
  bool scalar(Value &v, char c) {
    if (c == '"') {
      v.kind = Value::String;
      return string(v.string);
    }
    if (c == 't' || c == 'f') {
      v.kind = Value::Bool;
      v.boolean = c == 't';
      return literal(c == 't' ? "true" : "false");
    }
    if (c == 'n')
      return literal("null");
    char *end = nullptr;
    v.kind = Value::Number;
    v.number = std::strtod(s.c_str() + i, &end);
    if (end == s.c_str() + i)
      return failAt("unexpected character");
    i = end - s.c_str();
    return true;
  }
};
} // namespace

bool parse(const std::string &text, Value &out, std::string &error) {
  Parser p{text};
  if (!p.value(out)) {
    error = p.error;
    return false;
  }
  p.space();
  if (p.i != text.size()) {
    error = "trailing text at offset " + std::to_string(p.i);
    return false;
  }
  return true;
}

std::string quote(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out.push_back(c);
    }
  }
  return out + "\"";
}

} // namespace kfuse::json
