//===- Program.cpp - a library from kfuse-compile --emit=lib --------------===//
//
// Each entry point has MLIR's C interface: `_mlir_ciface_<name>(results,
// arg0, arg1, ...)`, every argument a pointer to a memref descriptor
// {allocated, aligned, offset, sizes[rank], strides[rank]} (all 8 bytes
// wide) and `results` a pointer to the result descriptors one after the
// other (omitted when there is no result). kfuse-compile gives each a
// packed twin, `kfuse_packed_<name>(void **pointers)`, called with those
// pointers in an array: any number of arguments.
//
//===----------------------------------------------------------------------===//
#include "Program.h"

#include "ElfCheck.h"
#include "Json.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <utility>
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
  // -1 is a dynamic dim; what is not an integer from -1 to 2^62 is kept as
  // -2, which open() refuses (a double out of int64_t's range would be
  // undefined to convert).
  for (const json::Value &d : v["shape"].array)
    t.shape.push_back(d.kind == json::Value::Number && d.number >= -1 &&
                              d.number <= 4611686018427387904.0 &&
                              d.number == double(int64_t(d.number))
                          ? int64_t(d.number)
                          : -2);
  return t;
}

VariantInfo variantInfo(const json::Value &v) {
  VariantInfo info;
  info.gpu = v["gpu"].boolean;
  info.gpuError = v["gpu_error"].string;
  if (v["host_code"].kind == json::Value::Bool)
    info.hostCode = v["host_code"].boolean;
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
    kernel.flops = text(k["flops"]);
    kernel.variant = k["variant"].string; // null or absent: none
    info.kernels.push_back(kernel);
  }
  if (v["host"].kind == json::Value::Object)
    info.host = std::make_shared<const VariantInfo>(variantInfo(v["host"]));
  return info;
}

using Ptr = void *;
/// The C interface takes one pointer per result buffer and argument
/// descriptor. A library from before the packed twins (kfuse-compile
/// before 2026-12-05) is called through a table of callers made at compile
/// time (one per count), up to kMaxPointers of them.
constexpr size_t kMaxPointers = 64;

template <size_t... I>
void callWith(void *fn, const Ptr *a, std::index_sequence<I...>) {
  using Fn = void (*)(decltype((void)I, Ptr())...);
  reinterpret_cast<Fn>(fn)(a[I]...);
}

template <size_t... N>
constexpr auto callers(std::index_sequence<N...>) {
  return std::array<void (*)(void *, const Ptr *), sizeof...(N)>{
      [](void *fn, const Ptr *a) { callWith(fn, a, std::make_index_sequence<N>()); }...};
}

/// Calls `fn` with `a.size()` pointer arguments.
bool invoke(void *fn, const std::vector<Ptr> &a) {
  static constexpr auto table = callers(std::make_index_sequence<kMaxPointers + 1>());
  if (a.size() > kMaxPointers)
    return false;
  table[a.size()](fn, a.data());
  return true;
}
} // namespace

bool evaluate(const std::string &poly, const Symbols &symbols, int64_t &value,
              bool *overflow) {
  // Terms "c", "dK", "c*dK*dJ", joined by " + " or " - ". Every step is
  // checked: sizes from --dim may make a polynomial leave int64_t.
  if (overflow)
    *overflow = false;
  auto overflowed = [&] {
    if (overflow)
      *overflow = true;
    return false;
  };
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
    int64_t product = sign;
    std::stringstream factors(term);
    std::string factor;
    while (std::getline(factors, factor, '*')) {
      int64_t f = 0;
      if (factor.size() > 1 && factor[0] == 'd') {
        auto it = symbols.find(factor);
        if (it == symbols.end())
          return false;
        f = it->second;
      } else if (!factor.empty() && factor.size() <= 18 &&
                 factor.find_first_not_of("0123456789") == std::string::npos) {
        f = std::atoll(factor.c_str());
      } else {
        return false; // not a polynomial kfuse-compile writes
      }
      if (__builtin_mul_overflow(product, f, &product))
        return overflowed();
    }
    if (__builtin_add_overflow(value, product, &value))
      return overflowed();
  }
  return true;
}

bool checkSizes(const FunctionInfo &f, const Symbols &symbols, std::string &error) {
  for (const VariantInfo *v : {&f.fused, &f.eager}) {
    Symbols sizes = withComputedSizes(*v, symbols);
    for (const KernelInfo &k : v->kernels)
      for (const std::string *poly : {&k.bytesRead, &k.bytesWritten}) {
        int64_t bytes;
        bool overflow = false;
        if (!evaluate(*poly, sizes, bytes, &overflow) && overflow)
          return error = "with these sizes kernel '" + k.name + "' of " + f.name +
                         " moves more than 2^63 - 1 bytes (" + *poly + ")",
                 false;
      }
  }
  return true;
}

Symbols withComputedSizes(const VariantInfo &v, const Symbols &symbols) {
  Symbols out = symbols;
  for (size_t k = 0; k < v.symbols.size(); ++k) {
    const std::string &m = v.symbols[k];
    size_t close = m.rfind(") / ");
    if (m.empty() || m[0] != '(' || close == std::string::npos)
      continue;
    int64_t numerator = 0;
    int64_t divisor = std::atoll(m.c_str() + close + 4);
    if (divisor > 0 && evaluate(m.substr(1, close - 1), out, numerator))
      out["d" + std::to_string(k)] = numerator / divisor;
  }
  return out;
}

bool Program::open(const std::string &path, std::string &error) {
  // The argument is a file: dlopen would search the library path for a
  // name without a '/' and could load another library of that name.
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  std::string why;
  if (!kfuse::rt::checkElfFile(file, why))
    return error = "cannot load " + path + ": " + why, false;
  library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
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
    for (const auto *types : {&info.args, &info.results})
      for (const TensorType &t : *types)
        for (int64_t d : t.shape)
          if (d < -1)
            return error = path + ": the manifest gives " + info.name + " a bad shape " +
                           shapeString(t.shape),
                   false;
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
  void *packed = dlsym(library, ("kfuse_packed_" + f.name + "__" + variant).c_str());
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
  if (packed) {
    reinterpret_cast<void (*)(Ptr *)>(packed)(pointers.data());
  } else if (!invoke(fn, pointers)) {
    error = f.name + " takes " + std::to_string(pointers.size()) + " pointers (" +
            std::to_string(f.args.size()) + " arguments, the results), and this library "
            "has no kfuse_packed_ entries (a kfuse-compile from before 2026-12-05): "
            "kfuse-run passes it at most " + std::to_string(kMaxPointers) +
            "; compile it again";
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
    // The descriptor comes from compiled code: checked before it is read.
    std::string which = "result" + std::to_string(results.size()) + " of " + f.name;
    int64_t elements;
    size_t bytes;
    if (!sizeOf(t.shape, elementSize(t.dtype), elements, bytes))
      return error = which + " came back with shape " + shapeString(t.shape) +
                     ", not a valid size",
             false;
    for (size_t d = 0; d < rank; ++d)
      if (r.shape[d] >= 0 && t.shape[d] != r.shape[d])
        return error = which + " came back with shape " + shapeString(t.shape) + "; " +
                       f.name + " returns " + shapeString(r.shape),
               false;
    if (elements > 0 && (!t.aligned || !t.allocated))
      return error = which + " came back as a null buffer", false;
    if (t.offset < 0)
      return error = which + " came back with a negative offset", false;
    results.push_back(std::move(t));
  }
  return true;
}

} // namespace kfuse::run
