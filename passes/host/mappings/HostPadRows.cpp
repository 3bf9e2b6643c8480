//===- HostPadRows.cpp - a pad's rows computed by its body, on the CPU ----===//
//
// A pad of a computed value (ResNet's batch norm and ReLU fused with the
// pad before the next convolution: HostPad.cpp's matchPad proves the body
// yields one value of the inputs inside the box and a constant outside):
// the row's inside columns run the kernel's own body on vectors along the
// row. As a flat kernel every element went through the body's modulo maps
// and index compares one at a time (ResNet-18's: 1.14 ms, 7% of it).
//
//===----------------------------------------------------------------------===//
#include "passes/host/mappings/HostMappings.h"
#include "passes/host/mappings/HostVectorBody.h"
#include "passes/launch/MappingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

/// Whether a computed pad's row runs as vectors: every input that reads
/// along the last dim reads it only in its last index (the loop, shifted,
/// or (c - low) mod size), from memory contiguous along that index.
bool kfuse::host::padRowsAsVectors(linalg::GenericOp op) {
  unsigned last = op.getNumLoops() - 1;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    auto type = cast<MemRefType>(operand->get().getType());
    ArrayRef<AffineExpr> results = op.getMatchingIndexingMap(operand).getResults();
    for (unsigned k = 0; k + 1 < results.size(); ++k)
      if (results[k].isFunctionOfDim(last))
        return false;
    if (!results.empty() && results.back().isFunctionOfDim(last) &&
        (!type.isLastDimUnitStride() || !type.getElementType().isIntOrFloat() ||
         type.getElementTypeBitWidth() < 8))
      return false;
  }
  return kfuse::host::VectorBody::supports({op}, /*withIndex=*/true);
}

/// Columns [from, from + cols) of the row at `at`, inside the box, computed
/// by the kernel's own body: whole vectors (kfuse::host::VectorBody along
/// the last loop; an input read at (c - low) mod size is a vector from the
/// first lane's index, since inside the box the lanes do not wrap), then
/// element by element.
void kfuse::host::computePadRow(OpBuilder &b, Location loc, ArrayRef<linalg::GenericOp> ops,
                                ArrayRef<Value> at, int64_t from, int64_t cols, unsigned lanes,
                                kfuse::gpu::PointwiseBody &scalar) {
  linalg::GenericOp op = ops.front();
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  unsigned last = at.size();
  int64_t whole = cols / lanes * lanes;
  {
    auto loop = scf::ForOp::create(b, loc, index(from), index(from + whole), index(lanes));
    OpBuilder::InsertionGuard inLoop(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> ivs(at);
    ivs.push_back(loop.getInductionVar());
    llvm::DenseMap<Value, Value> noViews;
    kfuse::host::VectorBody body(ops, noViews, lanes);
    body.readOverride = [&](OpOperand &operand) -> Value {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (!map.getNumResults() || !map.getResults().back().isFunctionOfDim(last) ||
          kfuse::host::isShiftOf(map.getResults().back(), b.getAffineDimExpr(last)))
        return nullptr; // VectorBody's own load
      auto type = cast<MemRefType>(operand.get().getType());
      return vector::LoadOp::create(b, loc, VectorType::get({lanes}, type.getElementType()),
                                    operand.get(), kfuse::gpu::indices(b, loc, map, ivs));
    };
    body.emit(b, loc, ivs);
  }
  auto tail = scf::ForOp::create(b, loc, index(from + whole), index(from + cols), index(1));
  OpBuilder::InsertionGuard inTail(b);
  b.setInsertionPointToStart(tail.getBody());
  SmallVector<Value> ivs(at);
  ivs.push_back(tail.getInductionVar());
  scalar.scalarAt(b, loc, ivs);
}

