//===- PrintDot.cpp - the fused kernels as a Graphviz graph ---------------===//
//
// One `digraph` for the module (one file renders to one picture), a
// cluster per function and, inside it, a cluster per fused kernel holding
// its ops. Function arguments and results are ellipses. Each edge is a
// tensor an op reads; an edge between two kernels is a round trip through
// memory, drawn red and labelled with the boundary's reason and the bytes
// of the tensor (what the producer kernel writes and the consumer reads).
// An op recomputed in several kernels is drawn in each. Node names are
// numbers (f<function>_k<kernel>_op<op>), so no name of the program needs
// escaping there; labels are escaped.
//
//===----------------------------------------------------------------------===//
#include "passes/report/KernelReport.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace kfuse::report {
namespace {

/// `text` inside a DOT double-quoted string.
std::string escaped(StringRef text) {
  std::string s;
  for (char c : text) {
    if (c == '"' || c == '\\')
      s += '\\';
    if (c == '\n') {
      s += "\\n";
      continue;
    }
    s += c;
  }
  return s;
}

std::string quoted(StringRef text) { return "\"" + escaped(text) + "\""; }

class FunctionPrinter {
public:
  FunctionPrinter(raw_ostream &os, const FunctionReport &r, unsigned index,
                  const SymbolValues &values)
      : os(os), r(r), values(values), prefix("f" + std::to_string(index)) {
    for (auto [i, k] : llvm::enumerate(r.kernels))
      kernelIndex[k.name] = i;
  }

  void print() {
    os << "  subgraph cluster_" << prefix << " {\n";
    os << "    label=" << quoted(functionLabel()) << ";\n";
    os << "    style=dashed;\n";
    for (auto [i, type] : llvm::enumerate(r.graph.arguments))
      os << "    " << prefix << "_arg" << i
         << " [label=" << quoted("arg" + std::to_string(i) + "\n" + type)
         << ", shape=ellipse];\n";
    for (auto [k, kernel] : llvm::enumerate(r.kernels)) {
      os << "    subgraph cluster_" << prefix << "_k" << k << " {\n";
      os << "      label=" << quoted(kernel.name + " (" + kernel.kind + ")")
         << ";\n";
      os << "      style=filled; fillcolor=\"#eef3fb\";\n";
      for (auto [i, op] : llvm::enumerate(r.graph.ops))
        if (llvm::is_contained(op.kernels, kernel.name))
          os << "      " << opNode(i, k)
             << " [label=" << quoted(op.op + "\n" + op.type) << "];\n";
      os << "    }\n";
    }
    // Ops found in no kernel (none expected): drawn outside the clusters.
    for (auto [i, op] : llvm::enumerate(r.graph.ops))
      if (op.kernels.empty())
        os << "    " << opNode(i, std::nullopt)
           << " [label=" << quoted(op.op + "\n" + op.type) << "];\n";
    for (auto [i, type] : llvm::enumerate(r.graph.results))
      os << "    " << prefix << "_result" << i
         << " [label=" << quoted("result" + std::to_string(i) + "\n" + type)
         << ", shape=ellipse];\n";
    for (const GraphEdge &e : r.graph.edges)
      printEdge(e);
    os << "  }\n";
  }

private:
  raw_ostream &os;
  const FunctionReport &r;
  const SymbolValues &values;
  std::string prefix;
  std::map<std::string, unsigned> kernelIndex;

  /// Its counts, then what each d<i> of the sizes stands for, as the text
  /// report says it.
  std::string functionLabel() const {
    std::string label =
        "@" + r.name + ": " + std::to_string(r.fused.kernels) + " kernels, " +
        sizeText(r.fused.bytes, values) + " bytes (eager " +
        std::to_string(r.eager.kernels) + " kernels, " +
        sizeText(r.eager.bytes, values) + " bytes)";
    for (auto [i, meaning] : llvm::enumerate(r.symbols)) {
      label += "\nd" + std::to_string(i) + " = " + meaning;
      if (i < values.size() && values[i])
        label += " = " + std::to_string(*values[i]);
    }
    return label;
  }

  /// The node of op `op` in kernel number `kernel` (none: outside them).
  std::string opNode(unsigned op, std::optional<unsigned> kernel) const {
    return prefix + (kernel ? "_k" + std::to_string(*kernel) : "") + "_op" +
           std::to_string(op);
  }

  /// The kernels holding op `i`, as numbers; none when it is in none.
  std::vector<std::optional<unsigned>> placesOf(unsigned i) const {
    std::vector<std::optional<unsigned>> places;
    for (const std::string &k : r.graph.ops[i].kernels)
      if (auto it = kernelIndex.find(k); it != kernelIndex.end())
        places.push_back(it->second);
    if (places.empty())
      places.push_back(std::nullopt);
    return places;
  }

  std::string endName(const GraphEnd &end) const {
    if (end.kind == GraphEnd::Argument)
      return prefix + "_arg" + std::to_string(end.index);
    if (end.kind == GraphEnd::Result)
      return prefix + "_result" + std::to_string(end.index);
    return opNode(end.index, placesOf(end.index).front());
  }

  /// The boundary recorded between op `p` in one of its kernels and op `c`
  /// in kernel `consumer`.
  const Boundary *boundaryOf(unsigned p, unsigned c, StringRef consumer) const {
    const GraphOp &producer = r.graph.ops[p];
    for (const Boundary &b : r.boundaries)
      if (b.consumer == consumer && b.consumerOp == r.graph.ops[c].op &&
          b.producerOp == producer.op &&
          llvm::is_contained(producer.kernels, b.producer))
        return &b;
    return nullptr;
  }

  void printEdge(const GraphEdge &e) {
    if (e.to.kind != GraphEnd::Op) {
      os << "    " << endName(e.from) << " -> " << endName(e.to) << ";\n";
      return;
    }
    // To each copy of the reader: from the producer's copy in the same
    // kernel, else from its first one, across a boundary.
    for (std::optional<unsigned> kc : placesOf(e.to.index)) {
      std::string to = opNode(e.to.index, kc);
      if (e.from.kind != GraphEnd::Op) {
        os << "    " << endName(e.from) << " -> " << to << ";\n";
        continue;
      }
      auto places = placesOf(e.from.index);
      if (llvm::is_contained(places, kc) && kc) {
        os << "    " << opNode(e.from.index, kc) << " -> " << to << ";\n";
        continue;
      }
      const GraphOp &producer = r.graph.ops[e.from.index];
      std::string label = "boundary", tooltip = "boundary";
      if (kc)
        if (const Boundary *b =
                boundaryOf(e.from.index, e.to.index, r.kernels[*kc].name)) {
          // A rule switched off is named by its switch; other reasons'
          // words are sentences, shown when the pointer rests on the edge.
          label = b->reason == "rule-disabled" ? b->reason + ": " + b->detail
                                               : b->reason;
          tooltip = b->reason + ": " + b->detail;
        }
      label += "\n" + sizeText(producer.bytes, values) + " bytes";
      os << "    " << opNode(e.from.index, places.front()) << " -> " << to
         << " [label=" << quoted(label) << ", tooltip=" << quoted(tooltip)
         << ", color=red, fontcolor=red, penwidth=2];\n";
    }
  }
};

} // namespace

void printDot(raw_ostream &os, ArrayRef<FunctionReport> reports,
              const SymbolValues &values) {
  os << "// kfuse kernel graph: a cluster per function, one per fused kernel\n"
        "// in it; red edges cross kernel boundaries (through memory).\n";
  os << "digraph kfuse {\n";
  os << "  graph [fontname=\"Helvetica\", fontsize=12];\n";
  os << "  node [fontname=\"Helvetica\", fontsize=11, shape=box, "
        "style=\"rounded,filled\", fillcolor=white];\n";
  os << "  edge [fontname=\"Helvetica\", fontsize=10];\n";
  for (auto [i, r] : llvm::enumerate(reports))
    FunctionPrinter(os, r, i, values).print();
  os << "}\n";
}

} // namespace kfuse::report
