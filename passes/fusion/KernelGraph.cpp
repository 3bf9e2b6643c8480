//===- KernelGraph.cpp - the kernels of a function and their edges --------===//
#include "passes/fusion/KernelGraph.h"
#include "passes/analysis/Views.h"
#include "dialect/Kf/KfDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace kfuse::fusion {

bool isAccumulatorFill(Operation *op) {
  auto fill = dyn_cast<linalg::FillOp>(op);
  if (!fill || fill->use_empty())
    return false;
  for (OpOperand &use : fill->getResult(0).getUses()) {
    auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
    if (!dps || !dps.isDpsInit(&use))
      return false;
  }
  return true;
}

static Domain dropUnitDims(const Domain &d) {
  Domain out;
  for (const analysis::Poly &p : d)
    if (p != analysis::Poly::constant(1))
      out.push_back(p);
  return out;
}

KernelGraph::KernelGraph(func::FuncOp func, analysis::SymbolicShapes &shapes) {
  for (Operation &op : func.getBody().front()) {
    // Kernels are formed on tensors; linalg on buffers (past bufferization)
    // is left alone.
    auto linalgOp = dyn_cast<linalg::LinalgOp>(&op);
    if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
        isAccumulatorFill(&op))
      continue;
    if (kf::isFinisher(&op)) {
      // Part of the node it reads (kf-to-linalg makes it the only reader).
      Operation *def = linalgOp.getDpsInputs()[0].getDefiningOp();
      if (auto it = nodeOf.find(def); it != nodeOf.end()) {
        nodes[it->second].finish = &op;
        nodeOf[&op] = it->second;
        continue;
      }
    }
    Node node;
    node.op = &op;
    StringRef eagerOp = kf::getEagerOpName(&op);
    node.opName = !eagerOp.empty() ? eagerOp.str()
                                   : op.getName().stripDialect().str();
    Value result = op.getResult(0);
    node.outDomain = dropUnitDims(shapes.shape(result));
    node.resultShape.assign(
        cast<RankedTensorType>(result.getType()).getShape().begin(),
        cast<RankedTensorType>(result.getType()).getShape().end());
    node.loopSizes = linalgOp.getStaticLoopRanges();
    node.materializes = node.opName == "contiguous";
    if (isa<linalg::TransposeOp>(op) || kf::isView(&op)) {
      node.kind = KernelKind::Transpose;
      node.view = true;
    } else if (isa<linalg::MatmulOp>(op) || node.opName == "matmul") {
      node.kind = KernelKind::Matmul;
    } else if (linalgOp.getNumReductionLoops() > 0) {
      node.kind = KernelKind::Reduction;
      SmallVector<unsigned> reduced;
      linalgOp.getReductionDims(reduced);
      node.reducedLoops.assign(reduced.begin(), reduced.end());
      unsigned loops = linalgOp.getNumLoops();
      node.reducesTrailingLoops = true;
      for (auto [i, d] : llvm::enumerate(llvm::reverse(node.reducedLoops)))
        node.reducesTrailingLoops &= d == loops - 1 - i;
      // The loop domain is the reduced input's shape (identity-indexed).
      node.domain = dropUnitDims(shapes.shape(linalgOp.getDpsInputs()[0]));
      int64_t elements = 1;
      for (unsigned d : node.reducedLoops)
        if (elements >= 0)
          elements = ShapedType::isDynamic(node.loopSizes[d])
                         ? -1
                         : elements * node.loopSizes[d];
      if (elements >= 0)
        node.reducedElements = elements;
    }
    if (node.domain.empty() && node.kind != KernelKind::Reduction)
      node.domain = node.outDomain;
    for (OpOperand &init : linalgOp.getDpsInitsMutable())
      if (Operation *def = init.get().getDefiningOp(); def && isAccumulatorFill(def))
        node.fill = def;
    nodeOf[&op] = nodes.size();
    nodes.push_back(std::move(node));
  }
  for (auto [c, node] : llvm::enumerate(nodes)) {
    auto linalgOp = cast<linalg::LinalgOp>(node.op);
    for (OpOperand *input : linalgOp.getDpsInputOperands()) {
      bool reshaped = false;
      auto p = producerOf(input->get(), reshaped);
      if (!p)
        continue;
      // Direct: the producer's result itself, or that result with unit dims
      // collapsed away (a stretched broadcast operand), which kernel
      // formation reads through when it merges bodies.
      Value read = input->get();
      if (auto collapse = read.getDefiningOp<tensor::CollapseShapeOp>()) {
        auto src = collapse.getSrcType().getShape();
        bool unitOnly = llvm::all_of(collapse.getReassociationIndices(),
                                     [&](const ReassociationIndices &group) {
                                       return llvm::count_if(group, [&](int64_t d) {
                                                return src[d] != 1;
                                              }) <= 1;
                                     });
        if (unitOnly && collapse->hasOneUse())
          read = collapse.getSrc();
      }
      Operation *def = read.getDefiningOp();
      bool direct = def == nodes[*p].op ||
                    (nodes[*p].finish && def == nodes[*p].finish);
      edges.push_back({*p, (unsigned)c, input->get(),
                       linalgOp.getMatchingIndexingMap(input), reshaped,
                       direct, input->getOperandNumber()});
    }
    // Tensors the body reads at loaded indices (a gather's input): an edge
    // no fusion may take, so that the producer's kernel writes it first.
    llvm::SetVector<Value> gathered;
    node.op->walk([&](tensor::ExtractOp extract) {
      if (!node.op->isAncestor(extract.getTensor().getParentBlock()->getParentOp()))
        gathered.insert(extract.getTensor());
    });
    for (Value v : gathered) {
      bool reshaped = false;
      if (auto p = producerOf(v, reshaped))
        edges.push_back({*p, (unsigned)c, v, AffineMap(), reshaped,
                         v.getDefiningOp() == nodes[*p].op, 0, /*gathered=*/true});
    }
  }
  (void)shapes;
}

std::optional<unsigned> KernelGraph::producerOf(Value v,
                                                bool &throughReshape) const {
  while (Operation *def = v.getDefiningOp()) {
    if (auto it = nodeOf.find(def); it != nodeOf.end())
      return it->second;
    Value src = analysis::viewSource(v);
    if (!src)
      return std::nullopt;
    // Adding or removing unit dims keeps the element order and structure.
    auto before = cast<RankedTensorType>(src.getType()).getShape();
    auto after = cast<RankedTensorType>(v.getType()).getShape();
    if (analysis::nonUnitDims(before) != analysis::nonUnitDims(after) ||
        isa<tensor::ExtractSliceOp>(def))
      throughReshape = true;
    v = src;
  }
  return std::nullopt;
}

} // namespace kfuse::fusion
