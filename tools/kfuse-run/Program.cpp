//===- Program.cpp - a library from kfuse-compile --emit=lib --------------===//
//
// Each entry point has MLIR's C interface: `_mlir_ciface_<name>(results,
// arg0, arg1, ...)`, every argument a pointer to a memref descriptor
// {allocated, aligned, offset, sizes[rank], strides[rank]} (all 8 bytes
// wide) and `results` a pointer to the result descriptors one after the
// other (omitted when there is no result).
//
//===----------------------------------------------------------------------===//
#include "Program.h"

#include "Json.h"

#include <cstring>
#include <dlfcn.h>
#include <sstream>

namespace kfuse::run {

namespace {
std::string text(const json::Value &v) {
  if (v.kind == json::Value::Number) {
    std::ostringstream os;
    os.precision(17);
    os << v.number;
    return os.str();
  }
  return v.string;
}

TensorType tensorType(const json::Value &v) {
  TensorType t;
  t.dtype = v["dtype"].string;
  for (const json::Value &d : v["shape"].array)
    t.shape.push_back(int64_t(d.number));
  return t;
}

VariantInfo variantInfo(const json::Value &v) {
  VariantInfo info;
  info.gpu = v["gpu"].boolean;
  info.gpuError = v["gpu_error"].string;
  for (const json::Value &s : v["symbols"].array)
    info.symbols.push_back(s.string);
  for (const json::Value &k : v["kernels"].array) {
    KernelInfo kernel;
    kernel.name = k["name"].string;
    kernel.kind = k["kind"].string;
    for (const json::Value &op : k["ops"].array)
      kernel.ops.push_back(op.string);
    kernel.reads = unsigned(k["reads"].number);
    kernel.writes = unsigned(k["writes"].number);
    kernel.bytesRead = text(k["bytes_read"]);
    kernel.bytesWritten = text(k["bytes_written"]);
    info.kernels.push_back(kernel);
  }
  return info;
}

using Ptr = void *;
/// Calls `fn` with `a.size()` pointer arguments.
bool invoke(void *fn, const std::vector<Ptr> &a) {
  switch (a.size()) {
  case 0: reinterpret_cast<void (*)()>(fn)(); return true;
  case 1: reinterpret_cast<void (*)(Ptr)>(fn)(a[0]); return true;
  case 2: reinterpret_cast<void (*)(Ptr, Ptr)>(fn)(a[0], a[1]); return true;
  case 3: reinterpret_cast<void (*)(Ptr, Ptr, Ptr)>(fn)(a[0], a[1], a[2]); return true;
  case 4: reinterpret_cast<void (*)(Ptr, Ptr, Ptr, Ptr)>(fn)(a[0], a[1], a[2], a[3]); return true;
  case 5: reinterpret_cast<void (*)(Ptr, Ptr, Ptr, Ptr, Ptr)>(fn)(a[0], a[1], a[2], a[3], a[4]); return true;
  case 6: reinterpret_cast<void (*)(Ptr, Ptr, Ptr, Ptr, Ptr, Ptr)>(fn)(a[0], a[1], a[2], a[3], a[4], a[5]); return true;
  case 7: reinterpret_cast<void (*)(Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr)>(fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6]); return true;
  case 8: reinterpret_cast<void (*)(Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr)>(fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]); return true;
  case 9: reinterpret_cast<void (*)(Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr)>(fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]); return true;
  case 10: reinterpret_cast<void (*)(Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr)>(fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]); return true;
  case 11: reinterpret_cast<void (*)(Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr)>(fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10]); return true;
  case 12: reinterpret_cast<void (*)(Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr)>(fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]); return true;
  default: return false;
  }
}
} // namespace

bool evaluate(const std::string &poly, const Symbols &symbols, int64_t &value) {
  // Terms "c", "dK", "c*dK*dJ", joined by " + " or " - ".
  value = 0;
  std::string s;
  for (char c : poly)
    if (c != ' ')
      s.push_back(c);
  size_t i = 0;
  while (i < s.size()) {
    int sign = 1;
    if (s[i] == '+' || s[i] == '-')
      sign = s[i++] == '-' ? -1 : 1;
    size_t end = s.find_first_of("+-", i);
    std::string term = s.substr(i, end == std::string::npos ? std::string::npos : end - i);
    i = end == std::string::npos ? s.size() : end;
    int64_t product = 1;
    std::stringstream factors(term);
    std::string factor;
    while (std::getline(factors, factor, '*')) {
      if (factor.empty())
        return false;
      if (factor[0] == 'd') {
        auto it = symbols.find(factor);
        if (it == symbols.end())
          return false;
        product *= it->second;
      } else {
        product *= std::stoll(factor);
      }
    }
    value += sign * product;
  }
  return true;
}

bool Program::open(const std::string &path, std::string &error) {
  library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *e = dlerror();
    error = "cannot load " + path + (e ? std::string(": ") + e : "");
    return false;
  }
  auto *manifest = static_cast<const char *>(dlsym(library, "kfuse_manifest"));
  if (!manifest) {
    error = path + " is not a library from kfuse-compile --emit=lib (no kfuse_manifest)";
    return false;
  }
  json::Value root;
  if (!json::parse(manifest, root, error)) {
    error = path + ": the manifest does not parse: " + error;
    return false;
  }
  chip = root["chip"].string;
  for (const json::Value &f : root["functions"].array) {
    FunctionInfo info;
    info.name = f["name"].string;
    for (const json::Value &a : f["args"].array)
      info.args.push_back(tensorType(a));
    for (const json::Value &r : f["results"].array)
      info.results.push_back(tensorType(r));
    info.fused = variantInfo(f["variants"]["fused"]);
    info.eager = variantInfo(f["variants"]["eager"]);
    funcs.push_back(std::move(info));
  }
  return true;
}

const FunctionInfo *Program::find(const std::string &name) const {
  for (const FunctionInfo &f : funcs)
    if (f.name == name)
      return &f;
  return nullptr;
}

bool Program::call(const FunctionInfo &f, const std::string &variant,
                   const std::vector<DeviceTensor> &args,
                   std::vector<DeviceTensor> &results, std::string &error) {
  std::string symbol = "_mlir_ciface_" + f.name + "__" + variant;
  void *fn = dlsym(library, symbol.c_str());
  if (!fn) {
    error = "the library has no " + symbol;
    return false;
  }
  std::vector<std::vector<int64_t>> descriptors;
  for (const DeviceTensor &t : args) {
    std::vector<int64_t> d = {int64_t(t.allocated), int64_t(t.aligned), t.offset};
    d.insert(d.end(), t.shape.begin(), t.shape.end());
    d.insert(d.end(), t.strides.begin(), t.strides.end());
    descriptors.push_back(std::move(d));
  }
  size_t resultWords = 0;
  for (const TensorType &r : f.results)
    resultWords += 3 + 2 * r.shape.size();
  std::vector<int64_t> resultBuffer(resultWords + 1);
  std::vector<Ptr> pointers;
  if (!f.results.empty())
    pointers.push_back(resultBuffer.data());
  for (auto &d : descriptors)
    pointers.push_back(d.data());
  if (!invoke(fn, pointers)) {
    error = f.name + " has " + std::to_string(pointers.size()) +
            " arguments and results; kfuse-run calls at most 12";
    return false;
  }
  results.clear();
  size_t w = 0;
  for (const TensorType &r : f.results) {
    DeviceTensor t;
    t.dtype = r.dtype;
    size_t rank = r.shape.size();
    t.allocated = reinterpret_cast<void *>(resultBuffer[w]);
    t.aligned = reinterpret_cast<void *>(resultBuffer[w + 1]);
    t.offset = resultBuffer[w + 2];
    t.shape.assign(resultBuffer.begin() + w + 3, resultBuffer.begin() + w + 3 + rank);
    t.strides.assign(resultBuffer.begin() + w + 3 + rank,
                     resultBuffer.begin() + w + 3 + 2 * rank);
    w += 3 + 2 * rank;
    results.push_back(std::move(t));
  }
  return true;
}

} // namespace kfuse::run
