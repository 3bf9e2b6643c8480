//===- Program.h - a library from kfuse-compile --emit=lib ------*- C++ -*-===//
#ifndef KFUSE_TOOLS_KFUSE_RUN_PROGRAM_H
#define KFUSE_TOOLS_KFUSE_RUN_PROGRAM_H

#include "Tensor.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kfuse::run {

struct TensorType {
  std::string dtype;
  std::vector<int64_t> shape; // -1: dynamic
};

struct KernelInfo {
  std::string name, kind;
  std::vector<std::string> ops;
  unsigned reads = 0, writes = 0;
  std::string bytesRead, bytesWritten; // a number or a polynomial in d0, ...
  std::string flops; // the same, per call; empty in manifests without it
  /// The design of its GPU mapping (a matmul's tensor_core, simt or
  /// reference); empty when it has none.
  std::string variant;
};

/// One compiled version (fused or eager) of a function.
struct VariantInfo {
  std::vector<KernelInfo> kernels;
  std::vector<std::string> symbols; // what d0, d1, ... stand for
  bool gpu = false;
  std::string gpuError;
  /// The library holds the host code (kfuse-compile --variants may leave
  /// it out; manifests from before say nothing: they hold it).
  bool hostCode = true;
  /// The host's own kernels (the host forms them from f64 moments: more
  /// ops, other names); null in a manifest from before they were recorded.
  std::shared_ptr<const VariantInfo> host;
  /// The kernels a run launches: the GPU's on CUDA, the host's on the CPU.
  const VariantInfo &launched(bool cuda) const { return cuda || !host ? *this : *host; }
};

struct FunctionInfo {
  std::string name;
  std::vector<TensorType> args, results;
  VariantInfo fused, eager;
};

/// Values of the size symbols d0, d1, ...
using Symbols = std::map<std::string, int64_t>;

/// Evaluates "10240*d0 + 2102272"; false when a symbol has no value or
/// the value leaves int64_t (then `*overflow` is set).
bool evaluate(const std::string &poly, const Symbols &symbols, int64_t &value,
              bool *overflow = nullptr);

/// `symbols` (the argument dims) and the sizes of `v` computed from them:
/// a symbol whose meaning is "(2*d0) / 8" (a reshape's inferred size).
Symbols withComputedSizes(const VariantInfo &v, const Symbols &symbols);

/// Refuses sizes with which a kernel of `f` (fused or eager) would read or
/// write more than 2^63 - 1 bytes: the program's own size arithmetic would
/// wrap, and it would allocate too little.
bool checkSizes(const FunctionInfo &f, const Symbols &symbols, std::string &error);

/// A buffer in the runtime's memory with its shape.
struct DeviceTensor {
  std::string dtype;
  std::vector<int64_t> shape;
  void *allocated = nullptr, *aligned = nullptr;
  int64_t offset = 0;
  std::vector<int64_t> strides;
};

class Program {
public:
  /// dlopens the library and reads its manifest.
  bool open(const std::string &path, std::string &error);
  const std::vector<FunctionInfo> &functions() const { return funcs; }
  const FunctionInfo *find(const std::string &name) const;

  /// Calls `<function>__<variant>` (gpu_fused, host_eager, ...) on `args`;
  /// the results are buffers the runtime allocated.
  bool call(const FunctionInfo &f, const std::string &variant,
            const std::vector<DeviceTensor> &args, std::vector<DeviceTensor> &results,
            std::string &error);

  std::string chip;

private:
  void *library = nullptr;
  std::vector<FunctionInfo> funcs;
};

} // namespace kfuse::run

#endif // KFUSE_TOOLS_KFUSE_RUN_PROGRAM_H
