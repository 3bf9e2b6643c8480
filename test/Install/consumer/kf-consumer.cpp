//===- kf-consumer.cpp - a program that uses the installed kfuse ----------===//
//
// Registers the kf dialect and the kfuse passes in an MLIRContext, parses a
// kf function, and runs the kernel report and kf-to-linalg by their names,
// as an out-of-tree MLIR project would (test/Install/consumer.test).
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfDialect.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

static const char *const kProgram = R"mlir(
func.func @add_relu(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %t = kf.add %a, %b : tensor<8xf32>, tensor<8xf32>
  %c = kf.relu %t : tensor<8xf32>
  return %c : tensor<8xf32>
}
)mlir";

int main() {
  kfuse::registerKfusePasses();
  mlir::DialectRegistry registry;
  registry.insert<kfuse::kf::KfDialect, mlir::func::FuncDialect>();
  mlir::MLIRContext context(registry);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kProgram, &context);
  if (!module)
    return 1; // the parser reported where

  // By name, through the registry: the passes are registered. The text is
  // nested in the pass manager's builtin.module.
  mlir::PassManager pm(&context);
  if (mlir::failed(mlir::parsePassPipeline(
          "kf-kernel-report,func.func(kf-to-linalg)", pm)))
    return 1;
  if (mlir::failed(pm.run(*module)))
    return 1;
  llvm::outs().flush();
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
