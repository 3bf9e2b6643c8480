//===- HostRowBuffers.cpp - where a row kernel's intermediates live -------===//
//
// A row kernel's passes (HostRowEmitter.h) hand values to each other
// through buffers the program allocated. Those only this kernel reads, at
// the same element, live one row at a time: a scratch row per block
// (rowLocalBuffers), or nowhere at all when a later pass can recompute
// them for less than the store and the load (recomputableBuffers).
//
//===----------------------------------------------------------------------===//
#include "passes/host/mappings/HostRowEmitter.h"

using namespace mlir;
using namespace kfuse::host::rows;
using kfuse::gpu::rows::isReduction;

SmallVector<Value> kfuse::host::rows::rowLocalBuffers(ArrayRef<linalg::LinalgOp> ops,
                                                      const Layout &layout) {
  llvm::SmallPtrSet<Operation *, 8> inKernel;
  for (linalg::LinalgOp op : ops)
    inKernel.insert(op.getOperation());
  SmallVector<Value> out;
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || isReduction(op) || layout.isRowOp(generic))
      continue;
    for (Value init : generic.getDpsInits()) {
      if (!init.getDefiningOp<memref::AllocOp>() || llvm::is_contained(out, init))
        continue;
      bool local = llvm::all_of(init.getUses(), [&](OpOperand &use) {
        Operation *user = use.getOwner();
        if (isa<memref::DeallocOp>(user))
          return true;
        auto reader = dyn_cast<linalg::LinalgOp>(user);
        return reader && inKernel.contains(user) &&
               reader.getMatchingIndexingMap(&use).isIdentity() &&
               reader.getNumLoops() == layout.isRowDim.size();
      });
      if (local)
        out.push_back(init);
    }
  }
  return out;
}

/// Body ops cheaper to redo than a store and a load: arith ops but
/// divisions and remainders (tens of cycles), constants, indices.
static bool isCheapBodyOp(Operation &op) {
  if (isa<arith::ConstantOp, linalg::IndexOp>(op))
    return true;
  return op.getDialect()->getNamespace() == "arith" &&
         !isa<arith::DivFOp, arith::DivSIOp, arith::DivUIOp, arith::RemFOp, arith::RemSIOp,
              arith::RemUIOp, arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op);
}

DenseMap<Value, linalg::GenericOp>
kfuse::host::rows::recomputableBuffers(ArrayRef<linalg::LinalgOp> ops, const Layout &layout) {
  // A recomputed value costs its body ops (and its inputs') at each pass
  // that reads it; past a few, a scratch row is cheaper.
  constexpr int kMaxOps = 4;
  SmallVector<Value> local = rowLocalBuffers(ops, layout);
  unsigned colDim = layout.isRowDim.size() - 1;
  DenseMap<Value, int> writers;
  DenseSet<Value> rowValues; // written once a row: reductions, row ops
  for (linalg::LinalgOp op : ops)
    for (Value init : op.getDpsInits()) {
      ++writers[init];
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (generic && (isReduction(op) || layout.isRowOp(generic)))
        rowValues.insert(init);
    }
  DenseMap<Value, linalg::GenericOp> out;
  DenseMap<Value, int> cost;
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || isReduction(op) || layout.isRowOp(generic))
      continue;
    Block &body = generic.getRegion().front();
    // Values that vary along the row: the rest (a mean's sum / n) is
    // scalar code once a vector, which LLVM hoists.
    DenseSet<Value> varying;
    for (OpOperand &operand : generic->getOpOperands())
      if (generic.getMatchingIndexingMap(&operand).isFunctionOfDim(colDim))
        varying.insert(body.getArgument(operand.getOperandNumber()));
    int n = 0;
    bool cheap = true;
    for (Operation &inner : body.without_terminator()) {
      auto index = dyn_cast<linalg::IndexOp>(inner);
      bool varies = (index && index.getDim() == colDim) ||
                    llvm::any_of(inner.getOperands(), [&](Value v) { return varying.contains(v); });
      if (!varies)
        continue;
      varying.insert(inner.getResult(0));
      cheap &= isCheapBodyOp(inner);
      ++n;
    }
    for (OpOperand *input : generic.getDpsInputOperands()) {
      if (!cheap || body.getArgument(input->getOperandNumber()).use_empty())
        continue;
      Value buffer = input->get();
      AffineMap map = generic.getMatchingIndexingMap(input);
      if (!writers.contains(buffer))
        continue; // the kernel's input: as readable in a later pass
      if (out.contains(buffer) && map.isIdentity()) {
        n += cost[buffer];
        continue;
      }
      // A value of the row, there from its pass on.
      cheap = rowValues.contains(buffer) && !map.isFunctionOfDim(colDim);
    }
    if (!cheap || n > kMaxOps)
      continue;
    for (Value init : generic.getDpsInits())
      if (llvm::is_contained(local, init) && writers[init] == 1) {
        out[init] = generic;
        cost[init] = n;
      }
  }
  return out;
}

SmallVector<std::pair<Value, AffineMap>>
kfuse::host::rows::transposedOutputs(ArrayRef<linalg::LinalgOp> ops, const Layout &layout) {
  unsigned colDim = layout.isRowDim.size() - 1;
  SmallVector<std::pair<Value, AffineMap>> out;
  for (linalg::LinalgOp op : ops) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || isReduction(op) || layout.isRowOp(generic))
      continue;
    for (OpOperand &init : generic.getDpsInitsMutable()) {
      AffineMap map = generic.getMatchingIndexingMap(&init);
      auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
      if (!last || last.getPosition() != colDim)
        out.push_back({init.get(), map});
    }
  }
  return out;
}
