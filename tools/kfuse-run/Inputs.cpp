//===- Inputs.cpp - a function's inputs from files or random --------------===//
#include "Run.h"

#include <filesystem>
#include <new>
#include <set>
#include <system_error>

namespace kfuse::run {

namespace {
/// The symbol dK that stands for dim `d` of argument `a`, if any.
std::string symbolFor(const VariantInfo &v, unsigned a, unsigned d) {
  std::string meaning = "dim " + std::to_string(d) + " of arg " + std::to_string(a);
  for (size_t k = 0; k < v.symbols.size(); ++k)
    if (v.symbols[k] == meaning)
      return "d" + std::to_string(k);
  return "";
}

/// N for a file named argN.npy (N without leading zeros), else npos.
size_t argIndex(const std::string &name) {
  if (name.size() < 8 || name.rfind("arg", 0) != 0 ||
      name.compare(name.size() - 4, 4, ".npy") != 0)
    return std::string::npos;
  std::string digits = name.substr(3, name.size() - 7);
  if (digits.empty() || digits.size() > 9 ||
      digits.find_first_not_of("0123456789") != std::string::npos ||
      (digits.size() > 1 && digits[0] == '0'))
    return std::string::npos;
  return std::stoul(digits);
}

/// Fills the arguments that --input left with DIR/argN.npy (kfuse-import
/// --save-inputs writes one per argument). Other files in DIR are not
/// read; an argN.npy for an argument the function does not have is an
/// error, since it says the directory was written for another program.
bool filesFromDir(const std::string &dir, const FunctionInfo &f,
                  std::vector<std::string> &files, std::string &error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return error = "--input-dir " + dir + ": not a directory" +
                   (ec ? " (" + ec.message() + ")" : ""),
           false;
  fs::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    size_t index = argIndex(name);
    if (index == std::string::npos)
      continue;
    if (index >= f.args.size())
      return error = "--input-dir " + dir + " has " + name + " but " + f.name + " takes " +
                     (f.args.empty() ? std::string("no arguments")
                                     : "arg0 .. arg" + std::to_string(f.args.size() - 1)),
             false;
    if (files[index].empty()) // --input argN=FILE wins
      files[index] = (fs::path(dir) / name).string();
  }
  if (ec)
    return error = "--input-dir " + dir + ": " + ec.message(), false;
  return true;
}
} // namespace

std::vector<std::pair<std::string, std::string>> inputDirFiles(const Options &o) {
  namespace fs = std::filesystem;
  std::vector<std::pair<std::string, std::string>> files;
  std::error_code ec;
  if (o.inputDir.empty())
    return files;
  fs::directory_iterator it(o.inputDir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (argIndex(name) == std::string::npos)
      continue;
    std::string arg = name.substr(0, name.size() - 4);
    bool given = false; // --input argN=FILE wins: DIR's file is not read
    for (auto &[input, path] : o.inputs)
      given |= input == arg;
    if (!given)
      files.push_back({"--input-dir's " + name, it->path().string()});
  }
  return files;
}

bool prepareInputs(const Options &o, const FunctionInfo &f, const VariantInfo &v,
                   std::vector<Tensor> &inputs, Symbols &symbols, std::string &error) {
  std::vector<std::string> files(f.args.size());
  for (auto &[name, path] : o.inputs) {
    size_t index = 0;
    if (name.rfind("arg", 0) != 0 || name.size() == 3 || name.size() > 12 ||
        name.find_first_not_of("0123456789", 3) != std::string::npos ||
        (index = std::stoul(name.substr(3))) >= f.args.size())
      return error = "--input " + name + ": " + f.name + " takes arg0 .. arg" +
                     std::to_string(f.args.size() - 1),
             false;
    if (!files[index].empty())
      return error = "--input " + name + " is given twice", false;
    files[index] = path;
  }
  std::vector<bool> fromDir(f.args.size());
  for (size_t a = 0; a < files.size(); ++a)
    fromDir[a] = files[a].empty();
  if (!o.inputDir.empty() && !filesFromDir(o.inputDir, f, files, error))
    return false;
  for (size_t a = 0; a < files.size(); ++a)
    fromDir[a] = fromDir[a] && !files[a].empty();
  std::set<std::string> known;
  for (size_t k = 0; k < v.symbols.size(); ++k)
    known.insert("d" + std::to_string(k));
  for (auto &[name, value] : o.dims) {
    if (!known.count(name))
      return error = "--dim " + name + ": " + f.name + " has no size symbol " + name +
                     (known.empty() ? " (its sizes are all static)" : ""),
             false;
    symbols[name] = value;
  }
  // Files first: their sizes give the symbols random inputs may need.
  inputs.assign(f.args.size(), Tensor());
  for (unsigned a = 0; a < f.args.size(); ++a) {
    const TensorType &type = f.args[a];
    if (elementSize(type.dtype) == 0)
      return error = f.name + " takes a " + type.dtype + " argument; kfuse-run does not", false;
    if (files[a].empty())
      continue;
    Tensor &t = inputs[a];
    if (!readNpy(files[a], t, error))
      return false;
    std::string which = fromDir[a] ? "--input-dir " + files[a]
                                   : "--input arg" + std::to_string(a) + "=" + files[a];
    if (t.dtype == "f32" && type.dtype == "bf16")
      t = narrowToBf16(t);
    if (t.dtype != type.dtype)
      return error = which + " holds " + t.dtype + "; " + f.name + " takes " + type.dtype, false;
    if (t.shape.size() != type.shape.size())
      return error = which + " has shape " + shapeString(t.shape) + "; " + f.name +
                     " takes " + shapeString(type.shape),
             false;
    for (unsigned d = 0; d < t.shape.size(); ++d) {
      if (type.shape[d] >= 0 && t.shape[d] != type.shape[d])
        return error = which + " has shape " + shapeString(t.shape) + "; " + f.name +
                       " takes " + shapeString(type.shape),
               false;
      std::string s = type.shape[d] < 0 ? symbolFor(v, a, d) : "";
      if (s.empty())
        continue;
      auto it = symbols.find(s);
      if (it != symbols.end() && it->second != t.shape[d])
        return error = which + ": dim " + std::to_string(d) + " is " +
                       std::to_string(t.shape[d]) + " but " + s + " is " +
                       std::to_string(it->second),
               false;
      symbols[s] = t.shape[d];
    }
  }
  for (unsigned a = 0; a < f.args.size(); ++a) {
    if (!files[a].empty())
      continue;
    std::vector<int64_t> shape = f.args[a].shape;
    for (unsigned d = 0; d < shape.size(); ++d) {
      if (shape[d] >= 0)
        continue;
      std::string s = symbolFor(v, a, d);
      auto it = s.empty() ? symbols.end() : symbols.find(s);
      if (it == symbols.end())
        return error = "arg" + std::to_string(a) + " of " + f.name + " has a dynamic dim " +
                       std::to_string(d) + (s.empty() ? "" : " (" + s + ")") +
                       ": give --dim " + (s.empty() ? "dK" : s) + "=N or --input arg" +
                       std::to_string(a) + "=FILE",
               false;
      shape[d] = it->second;
    }
    int64_t elements;
    size_t bytes;
    std::string which = "arg" + std::to_string(a) + " of " + f.name;
    if (!sizeOf(shape, elementSize(f.args[a].dtype), elements, bytes))
      return error = which + ": shape " + shapeString(shape) + " of " + f.args[a].dtype +
                     " is more than 2^63 - 1 bytes (see --dim)",
             false;
    try {
      if (!fitsInHostMemory(bytes))
        throw std::bad_alloc();
      inputs[a] = randomTensor(f.args[a].dtype, shape, o.seed, a);
    } catch (const std::bad_alloc &) {
      return error = which + ": cannot allocate " + std::to_string(bytes) +
                     " bytes of host memory for shape " + shapeString(shape),
             false;
    }
  }
  return true;
}

} // namespace kfuse::run
