//===- PrintReport.cpp - the kernel report as text and as JSON ------------===//
#include "passes/report/KernelReport.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using kfuse::analysis::Poly;

namespace kfuse::report {

/// Never a wrapped number: "overflow" instead.
std::string sizeText(const Poly &p, const SymbolValues &values) {
  bool overflow = false;
  if (auto v = p.evaluate(values, &overflow))
    return std::to_string(*v);
  return overflow ? "overflow" : p.str();
}

namespace {

llvm::json::Value sizeJson(const Poly &p, const SymbolValues &values) {
  bool overflow = false;
  if (auto v = p.evaluate(values, &overflow))
    return *v;
  return overflow ? "overflow" : p.str();
}

std::string accessList(ArrayRef<Access> accesses) {
  std::string s;
  for (const Access &a : accesses)
    s += (s.empty() ? "" : ", ") + a.name + " " + a.type;
  return s.empty() ? "nothing" : s;
}

} // namespace

void printText(raw_ostream &os, ArrayRef<FunctionReport> reports,
               const SymbolValues &values) {
  for (const FunctionReport &r : reports) {
    os << "function @" << r.name << "\n";
    os << llvm::formatv("  {0,-12}{1,20}  {2,20}\n", "", "eager", "fused");
    auto row = [&](StringRef what, std::string eager, std::string fused) {
      os << llvm::formatv("  {0,-12}{1,20}  {2,20}\n", what, eager, fused);
    };
    row("kernels", std::to_string(r.eager.kernels),
        std::to_string(r.fused.kernels));
    row("transfers", std::to_string(r.eager.transfers),
        std::to_string(r.fused.transfers));
    row("elements", sizeText(r.eager.elements, values),
        sizeText(r.fused.elements, values));
    row("bytes", sizeText(r.eager.bytes, values),
        sizeText(r.fused.bytes, values));
    for (auto [i, meaning] : llvm::enumerate(r.symbols)) {
      os << "  d" << i << " = " << meaning;
      if (i < values.size() && values[i])
        os << " = " << *values[i];
      os << "\n";
    }
    os << "  fused kernels:\n";
    for (const Kernel &k : r.kernels) {
      os << "    " << k.name << " (" << k.kind << "): ops ";
      for (auto [i, op] : llvm::enumerate(k.ops))
        os << (i ? ", " : "") << op;
      os << "\n      reads " << accessList(k.reads) << "\n      writes "
         << accessList(k.writes) << "\n";
      if (!k.mapping.empty()) {
        os << "      runs as " << k.mapping;
        if (!k.variant.empty())
          os << ", variant " << k.variant << (k.tiles.empty() ? "" : " tiles " + k.tiles)
             << " on " << r.chip;
        os << "\n";
      }
    }
    os << "  boundaries:" << (r.boundaries.empty() ? " none\n" : "\n");
    for (const Boundary &b : r.boundaries)
      os << "    " << b.producer << " -> " << b.consumer << " (" << b.producerOp
         << " -> " << b.consumerOp << "): " << b.reason << ": " << b.detail
         << "\n";
  }
}

void printJson(raw_ostream &os, ArrayRef<FunctionReport> reports,
               const SymbolValues &values) {
  using llvm::json::Array;
  using llvm::json::Object;
  auto traffic = [&](const Traffic &t) {
    return Object{{"kernels", t.kernels},
                  {"transfers", t.transfers},
                  {"elements", sizeJson(t.elements, values)},
                  {"bytes", sizeJson(t.bytes, values)}};
  };
  auto accesses = [&](ArrayRef<Access> list) {
    Array names;
    for (const Access &a : list)
      names.push_back(a.name);
    return names;
  };
  Array functions;
  for (const FunctionReport &r : reports) {
    Array kernels;
    for (const Kernel &k : r.kernels) {
      Array ops;
      for (const std::string &op : k.ops)
        ops.push_back(op);
      Object kernel{{"name", k.name},
                    {"kind", k.kind},
                    {"ops", std::move(ops)},
                    {"reads", accesses(k.reads)},
                    {"writes", accesses(k.writes)}};
      if (!k.mapping.empty())
        kernel["mapping"] = k.mapping;
      if (!k.variant.empty())
        kernel["variant"] = k.variant;
      if (!k.tiles.empty())
        kernel["tiles"] = k.tiles;
      kernels.push_back(std::move(kernel));
    }
    Object fused = traffic(r.fused);
    fused["kernel_list"] = std::move(kernels);
    Array boundaries;
    for (const Boundary &b : r.boundaries)
      boundaries.push_back(Object{{"producer", b.producer},
                                  {"consumer", b.consumer},
                                  {"producer_op", b.producerOp},
                                  {"consumer_op", b.consumerOp},
                                  {"reason", b.reason},
                                  {"detail", b.detail}});
    Array symbols;
    for (const std::string &s : r.symbols)
      symbols.push_back(s);
    Object function{{"name", r.name},
                    {"eager", traffic(r.eager)},
                    {"fused", std::move(fused)},
                    {"boundaries", std::move(boundaries)},
                    {"symbols", std::move(symbols)}};
    if (!r.chip.empty())
      function["gpu_chip"] = r.chip;
    functions.push_back(std::move(function));
  }
  // schema_version counts incompatible changes of this document's shape.
  Object document{{"schema_version", 1}, {"functions", std::move(functions)}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(document))) << "\n";
}

} // namespace kfuse::report
