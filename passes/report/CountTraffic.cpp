//===- CountTraffic.cpp - what each kernel reads and writes ---------------===//
#include "passes/report/KernelReport.h"
#include "passes/analysis/Views.h"
#include "passes/fusion/FusionPolicy.h"

#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using kfuse::analysis::Poly;

namespace kfuse::report {
namespace {

/// Reshapes and casts are views: a kernel reading one reads the tensor
/// underneath.
Value underlyingTensor(Value v) {
  while (Value src = analysis::viewSource(v))
    v = src;
  return v;
}

/// Values that are no memory traffic: splat constants (an immediate in the
/// kernel) and empty tensors (a destination, not data).
bool isFree(Value v) {
  if (auto c = v.getDefiningOp<arith::ConstantOp>())
    if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue()))
      return dense.isSplat();
  return v.getDefiningOp<tensor::EmptyOp>() != nullptr;
}

/// "2x5x16" ("" for a 0-d tensor).
std::string shapeString(Value v) {
  std::string s;
  for (int64_t d : cast<RankedTensorType>(v.getType()).getShape())
    s += (s.empty() ? "" : "x") + (ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d));
  return s;
}

/// "2x5x16xf32".
std::string typeString(Value v) {
  std::string s = shapeString(v);
  llvm::raw_string_ostream os(s);
  if (!s.empty())
    os << "x";
  cast<RankedTensorType>(v.getType()).getElementType().print(os);
  return s;
}

std::string nameOf(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return "arg" + std::to_string(arg.getArgNumber());
  if (auto kernel = v.getDefiningOp<kf::KernelOp>())
    return kernel.getSymName().str() + "#" +
           std::to_string(cast<OpResult>(v).getResultNumber());
  if (v.getDefiningOp<arith::ConstantOp>())
    return "constant";
  return "value";
}

Access access(Value v, analysis::SymbolicShapes &shapes) {
  return {nameOf(v), typeString(v), shapes.numel(v), shapes.bytes(v)};
}

/// A tensor the kernel reads only at loaded indices (a gather's input, read
/// by tensor.extract in linalg bodies): what it reads is one element per
/// element each such op computes, not the whole tensor (an embedding
/// table). Returns the linalg ops that gather from `v`, or nothing if the
/// kernel reads `v` otherwise too.
SmallVector<Operation *> gatherersOf(Value v, kf::KernelOp kernel) {
  SmallVector<Operation *> ops;
  for (Operation *user : v.getUsers()) {
    if (!kernel->isAncestor(user))
      continue;
    auto extract = dyn_cast<tensor::ExtractOp>(user);
    Operation *owner = extract ? extract->getParentOp() : nullptr;
    if (!owner || !isa<linalg::LinalgOp>(owner) || owner->getNumResults() != 1)
      return {};
    if (!llvm::is_contained(ops, owner))
      ops.push_back(owner);
  }
  return ops;
}

Access gatheredAccess(Value v, ArrayRef<Operation *> gatherers,
                      analysis::SymbolicShapes &shapes) {
  Poly elements = Poly::constant(0);
  std::string read;
  for (Operation *op : gatherers) {
    elements = elements + shapes.numel(op->getResult(0));
    read += (read.empty() ? "" : " + ") + shapeString(op->getResult(0));
  }
  unsigned bits = cast<RankedTensorType>(v.getType()).getElementTypeBitWidth();
  Poly bytes = elements * Poly::constant(std::max(1u, bits / 8));
  return {nameOf(v), typeString(v) + " gathered " + read, elements, bytes};
}

} // namespace

Traffic countTraffic(func::FuncOp func, std::vector<Kernel> *kernels,
                     std::vector<std::string> *symbols) {
  analysis::SymbolicShapes shapes(func);
  Traffic total;
  total.elements = Poly::constant(0);
  total.bytes = Poly::constant(0);
  for (auto kernel : func.getOps<kf::KernelOp>()) {
    Kernel k;
    k.name = kernel.getSymName().str();
    k.kind = kf::stringifyKernelKind(kernel.getKind()).str();
    if (std::optional<kf::KernelMapping> mapping = kernel.getMapping())
      k.mapping = kf::stringifyKernelMapping(*mapping).str();
    if (std::optional<kf::KernelVariant> variant = kernel.getVariant())
      k.variant = kf::stringifyKernelVariant(*variant).str();
    // As --matmul-tiles spells them (the report does not depend on
    // passes/gpu, where MatmulTiles.cpp parses and prints them).
    if (kf::MatmulTilesAttr t = kernel.getTilesAttr())
      k.tiles = llvm::formatv("{0}x{1}x{2}/{3}x{4}/{5}/{6}", t.getM(), t.getN(), t.getK(),
                              t.getWarpsM(), t.getWarpsN(), t.getStages(), t.getGroupM())
                    .str();
    if (ArrayAttr ops = kernel.getOpsAttr())
      for (auto name : ops.getAsValueRange<StringAttr>())
        k.ops.push_back(name.str());
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(kernel.getBody(), captured);
    llvm::SetVector<Value> inputs;
    for (Value v : captured)
      if (isa<RankedTensorType>(v.getType()) && !isFree(underlyingTensor(v)))
        inputs.insert(underlyingTensor(v));
    for (Value v : inputs) {
      SmallVector<Operation *> gatherers = gatherersOf(v, kernel);
      k.reads.push_back(gatherers.empty() ? access(v, shapes)
                                          : gatheredAccess(v, gatherers, shapes));
    }
    for (Value r : kernel.getResults())
      k.writes.push_back(access(r, shapes));
    total.kernels += 1;
    for (const Access &a : llvm::concat<const Access>(k.reads, k.writes)) {
      total.transfers += 1;
      total.elements = total.elements + a.elements;
      total.bytes = total.bytes + a.bytes;
    }
    if (kernels)
      kernels->push_back(std::move(k));
  }
  if (symbols)
    *symbols = shapes.symbolMeanings();
  return total;
}

std::vector<Boundary> readBoundaries(func::FuncOp func) {
  std::vector<Boundary> out;
  for (kf::BoundaryAttr boundary : kf::getBoundaries(func))
    out.push_back({boundary.getProducer().str(), boundary.getConsumer().str(),
                   boundary.getProducerOp().str(),
                   boundary.getConsumerOp().str(),
                   fusion::reasonCode(boundary.getReason()),
                   boundary.getDetail().str()});
  return out;
}

} // namespace kfuse::report
