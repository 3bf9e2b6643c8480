//===- CountTraffic.cpp - what each kernel reads and writes ---------------===//
#include "passes/report/KernelReport.h"
#include "passes/analysis/Views.h"
#include "passes/fusion/FusionPolicy.h"

#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

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

std::string typeString(Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  std::string s;
  llvm::raw_string_ostream os(s);
  for (int64_t d : t.getShape())
    os << (ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d)) << "x";
  t.getElementType().print(os);
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
    if (ArrayAttr ops = kernel.getOpsAttr())
      for (auto name : ops.getAsValueRange<StringAttr>())
        k.ops.push_back(name.str());
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(kernel.getBody(), captured);
    llvm::SetVector<Value> inputs;
    for (Value v : captured)
      if (isa<RankedTensorType>(v.getType()) && !isFree(underlyingTensor(v)))
        inputs.insert(underlyingTensor(v));
    for (Value v : inputs)
      k.reads.push_back(access(v, shapes));
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
