//===- KfOrderConstantGlobals.cpp - constants in a reproducible order ----===//
//
// Upstream's one-shot module bufferization orders the functions it
// bufferizes by their calls; functions that do not call one another come
// out in an order taken from pointer-keyed maps, and the memref.global of
// each tensor constant is created at the start of the module when its
// function is met. So a program's constants changed places from one run to
// the next (test/GPU/new-ops-ptxas.mlir: three of every four runs), and
// its LLVM IR and objects with them. Fixing the order inside upstream's
// driver is not ours to do; ordering the globals after it is enough, since
// nothing else it produces depends on the order.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace kfuse {
#define GEN_PASS_DEF_KFORDERCONSTANTGLOBALS
#include "passes/Passes.h.inc"
} // namespace kfuse

using namespace mlir;

namespace {

struct KfOrderConstantGlobalsPass
    : kfuse::impl::KfOrderConstantGlobalsBase<KfOrderConstantGlobalsPass> {
  void runOnOperation() override {
    SmallVector<memref::GlobalOp> constants;
    for (auto global : getOperation().getOps<memref::GlobalOp>())
      if (global.getConstant() && global.isPrivate())
        constants.push_back(global);
    if (constants.size() < 2)
      return markAllAnalysesPreserved();
    // Where the first of them is: after the others are moved, before
    // whatever followed it.
    Operation *first = constants.front();
    llvm::stable_sort(constants, [](memref::GlobalOp a, memref::GlobalOp b) {
      return a.getSymName() < b.getSymName();
    });
    Block *body = getOperation().getBody();
    Block::iterator at = Block::iterator(first);
    for (memref::GlobalOp global : constants) {
      if (global.getOperation() == &*at) {
        ++at;
        continue;
      }
      global->moveBefore(body, at);
    }
  }
};

} // namespace
