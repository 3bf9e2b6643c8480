//===- KfSplitDeallocs.cpp - one dealloc per allocation -------------------===//
//
// Ownership-based deallocation frees a block's buffers where the block
// ends, with one bufferization.dealloc of all of them: a program of N
// kernels ends with one dealloc of about N buffers. Upstream's
// buffer-deallocation-simplification then asks, for each buffer, whether it
// may alias each of the others (SplitDeallocWhenNotAliasingAnyOther): N^2
// alias queries (a 1,000-op program: 3,400 buffers, 20 s). Buffers that are
// each the result of their own memref.alloc are distinct allocations and
// cannot alias one another, so such a dealloc is split here into one
// dealloc per buffer with the same retained list, the updated conditions of
// the retained values or-ed together: what that pattern would produce,
// without the queries. A dealloc listing anything else (a view, an
// argument, a buffer twice) is left as it is, to upstream.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace kfuse {
#define GEN_PASS_DEF_KFSPLITDEALLOCS
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;
using bufferization::DeallocOp;

namespace {

/// True when every memref `dealloc` frees is the result of its own
/// memref.alloc, each listed once: no two can alias.
bool freesDistinctAllocations(DeallocOp dealloc) {
  llvm::SmallPtrSet<Value, 16> seen;
  for (Value memref : dealloc.getMemrefs())
    if (!memref.getDefiningOp<memref::AllocOp>() || !seen.insert(memref).second)
      return false;
  return true;
}

/// One dealloc per memref of `dealloc`, each retaining what it retains; a
/// retained value's updated condition is the disjunction of theirs (the
/// dealloc's definition: the conditions of the memrefs that alias it).
void split(DeallocOp dealloc) {
  OpBuilder b(dealloc);
  Location loc = dealloc.getLoc();
  SmallVector<Value> updated;
  for (auto [i, memref] : llvm::enumerate(dealloc.getMemrefs())) {
    auto one = DeallocOp::create(b, loc, ValueRange{memref},
                                 ValueRange{dealloc.getConditions()[i]},
                                 dealloc.getRetained());
    ValueRange mine = one.getUpdatedConditions();
    if (i == 0) {
      llvm::append_range(updated, mine);
      continue;
    }
    for (size_t r = 0; r < updated.size(); ++r)
      updated[r] = arith::OrIOp::create(b, loc, updated[r], mine[r]);
  }
  dealloc->replaceAllUsesWith(updated);
  dealloc.erase();
}

struct KfSplitDeallocsPass
    : kfuse::impl::KfSplitDeallocsBase<KfSplitDeallocsPass> {
  void runOnOperation() override {
    SmallVector<DeallocOp> deallocs;
    getOperation()->walk([&](DeallocOp d) {
      if (d.getMemrefs().size() > 1 && freesDistinctAllocations(d))
        deallocs.push_back(d);
    });
    for (DeallocOp d : deallocs)
      split(d);
  }
};

} // namespace
