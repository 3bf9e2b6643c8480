//===- KfMaterializeKernelResults.cpp - a kernel computes what it yields --===//
//
// Canonicalization erases a linalg.generic that only copies its input
// (upstream's EraseIdentityLinalgOp). A kernel whose only work is such a
// copy, e.g. a returned slice `x[:, :2]` (a tensor.extract_slice read by a
// copy marked kf.view), is then left yielding a value made outside it:
// bufferization turns that into a strided memref.copy on the host, which no
// device (and no host runtime without libMLIR) can run, and the kernel the
// report counted has no launch. Upstream's canonicalizer has no switch for
// one pattern short of naming it by its C++ type, so the copy is put back
// after it: whatever a kernel yields that no op of its own computes is
// copied by an identity linalg.generic inside the kernel, the same copy
// kf-to-linalg made, which the kernel's mapping already expects. A cast of
// a value the kernel computes moves after the kernel instead.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kfuse {
#define GEN_PASS_DEF_KFMATERIALIZEKERNELRESULTS
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;
using kfuse::kf::KernelOp;
using kfuse::kf::YieldOp;

namespace {

/// True when `v` is computed by a linalg op of `kernel`'s own body.
bool computedInside(Value v, KernelOp kernel) {
  Operation *def = v.getDefiningOp();
  return def && kernel->isProperAncestor(def) && isa<linalg::LinalgOp>(def);
}

/// An identity copy of the ranked tensor `v` into a new tensor, at `b`.
Value copyOf(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, v);
  Value init = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> parallel(type.getRank(), utils::IteratorType::parallel);
  auto copy = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{v}, ValueRange{init}, ArrayRef<AffineMap>{id, id},
      parallel, [](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, args[0]);
      });
  kfuse::kf::setEagerOpName(copy, "copy");
  return copy.getResult(0);
}

struct KfMaterializeKernelResultsPass
    : kfuse::impl::KfMaterializeKernelResultsBase<KfMaterializeKernelResultsPass> {
  void runOnOperation() override {
    getOperation()->walk([&](KernelOp kernel) {
      auto yield = cast<YieldOp>(kernel.getBody().front().getTerminator());
      OpBuilder b(yield);
      for (OpOperand &result : yield->getOpOperands()) {
        if (!isa<RankedTensorType>(result.get().getType()) ||
            computedInside(result.get(), kernel))
          continue;
        // The canonicalizer's tensor.cast (to a dynamic shape) of a value
        // the kernel computes: the kernel yields that value and the cast
        // moves after it. A copy would be an op over the value's own order
        // where the value was written through a permutation (a transposed
        // epilogue), which no row mapping runs.
        if (auto cast = result.get().getDefiningOp<tensor::CastOp>();
            cast && kernel->isProperAncestor(cast) && computedInside(cast.getSource(), kernel)) {
          Value out = kernel->getResult(result.getOperandNumber());
          Type dynamic = out.getType();
          result.set(cast.getSource());
          out.setType(cast.getSource().getType());
          OpBuilder after(kernel);
          after.setInsertionPointAfter(kernel);
          auto back = tensor::CastOp::create(after, kernel.getLoc(), dynamic, out);
          out.replaceAllUsesExcept(back, back);
          if (cast->use_empty())
            cast->erase();
          continue;
        }
        // A value made inside the kernel by a view or cast (the
        // canonicalizer's tensor.cast to a static shape) is copied right
        // where it is made, not at the end: in a row chain the end is the
        // part after the final reduction, where an op over the rows would
        // run as one value (only its first element copied).
        Operation *def = result.get().getDefiningOp();
        if (def && kernel->isProperAncestor(def))
          b.setInsertionPointAfter(def);
        else
          b.setInsertionPoint(yield);
        result.set(copyOf(b, yield.getLoc(), result.get()));
      }
    });
  }
};

} // namespace
