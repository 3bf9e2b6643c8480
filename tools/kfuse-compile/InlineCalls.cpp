//===- InlineCalls.cpp - calls inlined before the GPU pipeline ------------===//
#include "tools/kfuse-compile/InlineCalls.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace kfuse {
namespace {

struct Inliner {
  SymbolTable table;
  enum State { Visiting, Done };
  llvm::DenseMap<Operation *, State> state;
  llvm::DenseMap<Operation *, size_t> sizes; // ops, once inlined into

  explicit Inliner(ModuleOp module) : table(module) {}

  func::FuncOp definedCallee(func::CallOp call) {
    auto callee = table.lookup<func::FuncOp>(call.getCallee());
    return callee && !callee.isExternal() ? callee : func::FuncOp();
  }

  /// Inlines the calls in `func`, after those in its callees (depth first;
  /// a callee met again while its own calls are inlined is recursion).
  LogicalResult inlineInto(func::FuncOp func) {
    state[func] = Visiting;
    size_t ops = 0;
    func.walk([&](Operation *) { ++ops; });
    SmallVector<func::CallOp> calls;
    func.walk([&](func::CallOp call) {
      if (definedCallee(call))
        calls.push_back(call);
    });
    for (func::CallOp call : calls) {
      func::FuncOp callee = definedCallee(call);
      auto it = state.find(callee);
      if (it != state.end() && it->second == Visiting)
        return call.emitError() << "the call of '" << callee.getName()
                                << "' is recursive: kfuse-compile inlines every "
                                   "call and cannot inline this one";
      if (it == state.end() && failed(inlineInto(callee)))
        return failure();
      if (!callee.getBody().hasOneBlock())
        return call.emitError() << "cannot inline the call of '" << callee.getName()
                                << "': its body has more than one block";
      // Counted before cloning: a chain of functions each calling the
      // next twice doubles at each step.
      ops += sizes[callee];
      if (ops > kMaxInlinedOps)
        return func.emitError() << "inlining its calls makes '" << func.getName()
                                << "' more than " << kMaxInlinedOps
                                << " ops: refused";
      IRMapping map;
      map.map(callee.getArguments(), call.getOperands());
      OpBuilder b(call);
      Block &body = callee.getBody().front();
      for (Operation &op : body.without_terminator())
        b.clone(op, map);
      for (auto [result, value] :
           llvm::zip(call.getResults(), body.getTerminator()->getOperands()))
        result.replaceAllUsesWith(map.lookupOrDefault(value));
      call.erase();
    }
    sizes[func] = ops;
    state[func] = Done;
    return success();
  }
};

} // namespace

LogicalResult inlineCalls(ModuleOp module) {
  Inliner inliner(module);
  SmallVector<func::FuncOp> funcs;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      funcs.push_back(func);
  bool anyCall = false;
  module.walk([&](func::CallOp call) { anyCall |= bool(inliner.definedCallee(call)); });
  if (!anyCall)
    return success();
  for (func::FuncOp func : funcs)
    if (!inliner.state.count(func) && failed(inliner.inlineInto(func)))
      return failure();
  // Private functions are no entry: once their calls are inlined, nothing
  // reaches them.
  for (func::FuncOp func : funcs)
    if (func.isPrivate() && SymbolTable::symbolKnownUseEmpty(func, module))
      func.erase();
  return success();
}

} // namespace kfuse
