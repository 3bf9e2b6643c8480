//===- KernelGraph.h - the kernels of a function and their edges -*- C++ -*-===//
//
// The graph kernel formation decides on: one node per linalg op that eager
// PyTorch launches as a kernel (tagged `kf.op` by kf-to-linalg), one edge
// per tensor a node reads from another node, looking through ops that are
// no kernel (reshapes and casts of tensors).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_FUSION_KERNELGRAPH_H
#define KFUSE_PASSES_FUSION_KERNELGRAPH_H

#include "dialect/Kf/KfAttrs.h"
#include "passes/analysis/SymbolicShapes.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace kfuse::fusion {

/// What a kernel computes (declared in ODS: dialect/Kf/KfAttrs.td).
using KernelKind = kf::KernelKind;
inline llvm::StringRef kindName(KernelKind kind) {
  return kf::stringifyKernelKind(kind);
}

using Domain = std::vector<analysis::Poly>;

struct Node {
  mlir::Operation *op = nullptr;
  KernelKind kind = KernelKind::Pointwise;
  std::string opName;               // the kf op it came from ("add", "sum")
  Domain domain;                    // loop sizes, static 1s dropped
  Domain outDomain;                 // result sizes, static 1s dropped
  llvm::SmallVector<int64_t> reducedLoops; // reductions: the reduction loops
  bool reducesTrailingLoops = false; // the reduced loops are the innermost
  mlir::Operation *fill = nullptr;  // the fill that starts its accumulator
  /// The op that finishes it in the same eager kernel (`kf.finishes`:
  /// mean's division, rounding an f32 accumulator), or null. Readers of its
  /// result read this node.
  mlir::Operation *finish = nullptr;
  /// The copy of a view (`kf.view`: a transpose or slice nothing could read
  /// in place): kind Transpose, fused as an elementwise op.
  bool view = false;
  /// kf.contiguous: its readers read memory (boundary `materialize`).
  bool materializes = false;
  /// Reductions: the number of elements each result combines, when every
  /// reduced loop is static (a small one is unrolled in a thread).
  std::optional<int64_t> reducedElements;
  /// The result's shape as typed (static 1s kept, -1 for dynamic dims):
  /// ops that stay separate in a flat kernel must agree on it.
  llvm::SmallVector<int64_t> resultShape;
  /// The static loop sizes (-1 for dynamic), as the row mapping compares.
  llvm::SmallVector<int64_t> loopSizes;
};

struct Edge {
  unsigned producer, consumer;
  mlir::Value read;         // the value as the consumer reads it
  mlir::AffineMap readMap;  // the consumer's indexing map for that operand
  bool throughReshape = false; // a reshape that is more than unit dims
  bool direct = false; // reads the producer's result itself (no reshape)
  unsigned operand = 0; // the consumer's operand number that reads it
  /// Read in the consumer's body at loaded indices (a gather's captured
  /// input), not through an operand: `readMap` is null, `operand` unused.
  bool gathered = false;
};

class KernelGraph {
public:
  /// Builds the graph of the single-block function `func`.
  KernelGraph(mlir::func::FuncOp func, analysis::SymbolicShapes &shapes);

  std::vector<Node> nodes;  // in program order
  std::vector<Edge> edges;  // grouped by consumer, in operand order
  llvm::DenseMap<mlir::Operation *, unsigned> nodeOf;

  /// The node whose result `v` is, looking through reshapes and casts;
  /// sets `throughReshape` when the shape changes beyond unit dims.
  std::optional<unsigned> producerOf(mlir::Value v, bool &throughReshape) const;
};

/// Whether `op` is a linalg.fill whose result only starts accumulators.
bool isAccumulatorFill(mlir::Operation *op);

} // namespace kfuse::fusion

#endif // KFUSE_PASSES_FUSION_KERNELGRAPH_H
