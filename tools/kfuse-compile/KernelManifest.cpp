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

namespace {
llvm::json::Value sizeOf(const analysis::Poly &p) {
  if (auto c = p.getConstant())
    return *c;
  return p.str();
}

llvm::json::Array tensorsOf(TypeRange types) {
  llvm::json::Array list;
  for (Type t : types) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor) {
      list.push_back(llvm::json::Object{{"dtype", "unsupported"}});
      continue;
    }
    std::string dtype;
    llvm::raw_string_ostream ds(dtype);
    tensor.getElementType().print(ds);
    llvm::json::Array shape;
    for (int64_t d : tensor.getShape())
      shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
    list.push_back(llvm::json::Object{{"dtype", dtype}, {"shape", std::move(shape)}});
  }
  return list;
}
} // namespace

void writeProgramManifest(raw_ostream &os, ModuleOp program,
                          ArrayRef<ProgramVariant> variants, unsigned blockSize,
                          StringRef chip) {
  llvm::json::Array functions;
  for (auto func : program.getOps<func::FuncOp>()) {
    if (func.isExternal() || !func.isPublic())
      continue;
    llvm::json::Object versions;
    for (const ProgramVariant &v : variants) {
      ModuleOp kernelsModule = const_cast<ProgramVariant &>(v).kernels.get();
      auto formed = kernelsModule.lookupSymbol<func::FuncOp>(func.getName());
      std::vector<report::Kernel> found;
      std::vector<std::string> symbols;
      report::countTraffic(formed, &found, &symbols);
      llvm::json::Array kernels;
      for (const report::Kernel &k : found) {
        analysis::Poly read = analysis::Poly::constant(0);
        analysis::Poly written = analysis::Poly::constant(0);
        for (const report::Access &a : k.reads)
          read = read + a.bytes;
        for (const report::Access &a : k.writes)
          written = written + a.bytes;
        llvm::json::Array ops;
        for (const std::string &op : k.ops)
          ops.push_back(op);
        kernels.push_back(llvm::json::Object{
            {"name", k.name},
            {"kind", k.kind},
            {"ops", std::move(ops)},
            {"reads", k.reads.size()},
            {"writes", k.writes.size()},
            {"bytes_read", sizeOf(read)},
            {"bytes_written", sizeOf(written)}});
      }
      llvm::json::Array symbolList;
      for (const std::string &s : symbols)
        symbolList.push_back(s);
      versions[v.name] = llvm::json::Object{
          {"kernels", std::move(kernels)},
          {"symbols", std::move(symbolList)},
          {"gpu", v.gpuError.empty()},
          {"gpu_error", v.gpuError}};
    }
    functions.push_back(llvm::json::Object{
        {"name", func.getName()},
        {"args", tensorsOf(func.getArgumentTypes())},
        {"results", tensorsOf(func.getResultTypes())},
        {"variants", std::move(versions)}});
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                   {"kfuse_manifest", 1},
                                   {"chip", chip},
                                   {"block_size", blockSize},
                                   {"functions", std::move(functions)}}))
     << "\n";
}

} // namespace kfuse
