//===- KernelManifest.cpp - kernels.json ----------------------------------===//
#include "tools/kfuse-compile/KernelManifest.h"

#include "passes/report/KernelReport.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;

namespace kfuse {

void writeKernelManifest(raw_ostream &os, ModuleOp kernels, ModuleOp gpu,
                         unsigned blockSize, StringRef chip) {
  // Launch arguments, by kernel name, from the outlined gpu.func.
  llvm::StringMap<llvm::json::Array> arguments;
  gpu.walk([&](gpu::GPUFuncOp func) {
    llvm::json::Array args;
    for (Type t : func.getArgumentTypes()) {
      std::string s;
      llvm::raw_string_ostream ts(s);
      t.print(ts);
      args.push_back(s);
    }
    arguments[func.getName()] = std::move(args);
  });
  auto size = [](const analysis::Poly &p) -> llvm::json::Value {
    if (auto c = p.getConstant())
      return *c;
    return p.str();
  };
  llvm::json::Array list;
  for (auto func : kernels.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    std::vector<report::Kernel> found;
    std::vector<std::string> symbols;
    report::countTraffic(func, &found, &symbols);
    for (const report::Kernel &k : found) {
      analysis::Poly read = analysis::Poly::constant(0);
      analysis::Poly written = analysis::Poly::constant(0);
      llvm::json::Array reads, writes, ops;
      for (const report::Access &a : k.reads) {
        read = read + a.bytes;
        reads.push_back(llvm::json::Object{{"name", a.name}, {"type", a.type},
                                           {"bytes", size(a.bytes)}});
      }
      for (const report::Access &a : k.writes) {
        written = written + a.bytes;
        writes.push_back(llvm::json::Object{{"name", a.name}, {"type", a.type},
                                            {"bytes", size(a.bytes)}});
      }
      for (const std::string &op : k.ops)
        ops.push_back(op);
      auto args = arguments.find(k.name);
      llvm::json::Array symbolList;
      for (const std::string &s : symbols)
        symbolList.push_back(s);
      list.push_back(llvm::json::Object{
          {"name", k.name},
          {"function", func.getName()},
          {"kind", k.kind},
          {"ops", std::move(ops)},
          {"block_size", blockSize},
          {"grid", llvm::formatv("max(ceil(n / {0}), 1) blocks, n = the "
                                 "number of elements of the iteration space",
                                 blockSize)
                       .str()},
          {"arguments", args == arguments.end() ? llvm::json::Array()
                                                : std::move(args->second)},
          {"reads", std::move(reads)},
          {"writes", std::move(writes)},
          {"bytes_read", size(read)},
          {"bytes_written", size(written)},
          {"symbols", std::move(symbolList)},
      });
    }
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                   {"chip", chip}, {"kernels", std::move(list)}}))
     << "\n";
}

} // namespace kfuse
