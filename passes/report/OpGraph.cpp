//===- OpGraph.cpp - which fused kernel computes each op ------------------===//
//
// kf-form-kernels merges the linalg ops of a kernel into fewer ops (one
// generic for `sub` then `exp`), so the formed IR no longer says which op
// of the program is where. The drawing needs it: each op of the kernel
// graph is tagged before formation, on itself and on the scalar ops of its
// body, which merging copies into the merged op's body with their
// attributes; the tags found in a kernel are its ops.
//
//===----------------------------------------------------------------------===//
#include "passes/analysis/Views.h"
#include "passes/fusion/KernelGraph.h"
#include "passes/report/KernelReport.h"

#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <set>

using namespace mlir;

namespace kfuse::report {
namespace {

/// Not `kf.`-prefixed: the kf dialect verifies its own attributes, and this
/// one lives only between tagOpGraphs and readKernelsOfOps.
constexpr StringLiteral kTag = "kf_report_op";

std::string typeText(Type type) {
  auto t = cast<RankedTensorType>(type);
  std::string s;
  llvm::raw_string_ostream os(s);
  for (int64_t d : t.getShape())
    os << (ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d))
       << "x";
  t.getElementType().print(os);
  return s;
}

/// The function argument `v` is, looking through views; or none.
std::optional<unsigned> argumentOf(Value v) {
  while (Value src = analysis::viewSource(v))
    v = src;
  if (auto arg = dyn_cast<BlockArgument>(v))
    if (isa<func::FuncOp>(arg.getOwner()->getParentOp()))
      return arg.getArgNumber();
  return std::nullopt;
}

OpGraph tagFunction(func::FuncOp func) {
  OpGraph graph;
  for (Type t : func.getArgumentTypes())
    graph.arguments.push_back(isa<RankedTensorType>(t) ? typeText(t)
                                                       : "scalar");
  analysis::SymbolicShapes shapes(func);
  fusion::KernelGraph kernels(func, shapes);
  std::set<std::tuple<int, unsigned, int, unsigned>> edges;
  auto edge = [&](GraphEnd from, GraphEnd to) {
    edges.insert({from.kind, from.index, to.kind, to.index});
  };
  Builder b(func.getContext());
  for (auto [i, node] : llvm::enumerate(kernels.nodes)) {
    // Readers of the op read its finishing op's result when it has one.
    Operation *last = node.finish ? node.finish : node.op;
    Value result = last->getResult(0);
    graph.ops.push_back(
        {node.opName, typeText(result.getType()), shapes.bytes(result), {}});
    IntegerAttr tag = b.getI64IntegerAttr(i);
    for (Operation *op : {node.op, node.finish})
      if (op)
        op->walk([&](Operation *inner) { inner->setAttr(kTag, tag); });
    for (Value input : cast<linalg::LinalgOp>(node.op).getDpsInputs())
      if (auto arg = argumentOf(input))
        edge({GraphEnd::Argument, *arg}, {GraphEnd::Op, (unsigned)i});
  }
  for (const fusion::Edge &e : kernels.edges)
    edge({GraphEnd::Op, e.producer}, {GraphEnd::Op, e.consumer});
  Operation *ret = func.getBody().front().getTerminator();
  for (auto [i, v] : llvm::enumerate(ret->getOperands())) {
    graph.results.push_back(
        isa<RankedTensorType>(v.getType()) ? typeText(v.getType()) : "scalar");
    GraphEnd to{GraphEnd::Result, (unsigned)i};
    bool reshaped = false;
    if (auto arg = argumentOf(v))
      edge({GraphEnd::Argument, *arg}, to);
    else if (auto p = kernels.producerOf(v, reshaped))
      edge({GraphEnd::Op, *p}, to);
  }
  for (auto [fk, fi, tk, ti] : edges)
    graph.edges.push_back({{GraphEnd::Kind(fk), fi}, {GraphEnd::Kind(tk), ti}});
  return graph;
}

} // namespace

std::map<std::string, OpGraph> tagOpGraphs(ModuleOp module, bool fused) {
  // As kf-form-kernels begins: sizes from the arguments, then equal ops
  // computed once (not with fusion off). Both are idempotent, so its own
  // run of them after this finds nothing more, and the tags (which would
  // make equal ops differ) cannot stop a CSE it would have done.
  RewritePatternSet dims(module.getContext());
  memref::populateResolveRankedShapedTypeResultDimsPatterns(dims);
  (void)applyPatternsGreedily(module, std::move(dims));
  std::map<std::string, OpGraph> graphs;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal() || !func.getBody().hasOneBlock() ||
        !func.getOps<kf::KernelOp>().empty())
      continue; // kf-form-kernels refuses it, or has nothing to do
    if (fused) {
      IRRewriter rewriter(module.getContext());
      DominanceInfo dominance(func);
      eliminateCommonSubExpressions(rewriter, dominance, func);
    }
    graphs[func.getName().str()] = tagFunction(func);
  }
  return graphs;
}

void readKernelsOfOps(func::FuncOp formed, OpGraph &graph) {
  std::map<std::string, std::set<std::string>> opsOf; // kernel -> op names
  for (auto kernel : formed.getOps<kf::KernelOp>()) {
    std::string name = kernel.getSymName().str();
    if (ArrayAttr ops = kernel.getOpsAttr())
      for (auto op : ops.getAsValueRange<StringAttr>())
        opsOf[name].insert(op.str());
    std::set<unsigned> found;
    kernel.walk([&](Operation *op) {
      if (auto tag = op->getAttrOfType<IntegerAttr>(kTag)) {
        found.insert(tag.getInt());
        op->removeAttr(kTag);
      }
    });
    for (unsigned i : found)
      if (i < graph.ops.size())
        graph.ops[i].kernels.push_back(name);
  }
  // An op whose body is a bare yield (a copy, a transpose) leaves no tag
  // once merged with its neighbour in the same kernel (upstream fusion
  // builds the merged op's yield anew): the kernel of its reader, else of
  // its producer, that names it among its ops. Readers come later in
  // program order, so they are resolved first.
  auto adopt = [&](unsigned i, bool readers) {
    GraphOp &op = graph.ops[i];
    for (const GraphEdge &e : graph.edges) {
      if (e.from.kind != GraphEnd::Op || e.to.kind != GraphEnd::Op)
        continue;
      unsigned self = readers ? e.from.index : e.to.index;
      unsigned other = readers ? e.to.index : e.from.index;
      if (self != i)
        continue;
      for (const std::string &k : graph.ops[other].kernels)
        if (op.kernels.empty() && opsOf[k].count(op.op))
          op.kernels.push_back(k);
    }
  };
  for (unsigned i = graph.ops.size(); i-- > 0;)
    if (graph.ops[i].kernels.empty())
      adopt(i, /*readers=*/true);
  for (unsigned i = 0; i < graph.ops.size(); ++i)
    if (graph.ops[i].kernels.empty())
      adopt(i, /*readers=*/false);
}

} // namespace kfuse::report
