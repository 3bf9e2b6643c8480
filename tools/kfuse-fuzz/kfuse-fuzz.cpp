//===- kfuse-fuzz.cpp - libFuzzer target: parse, verify, lower, fuse ------===//
//
// Each input is an MLIR file. It is parsed with the kf dialect and every
// upstream dialect, verified, and when valid run through kf-to-linalg and
// kf-form-kernels (and the kernel report's analysis). Any crash, sanitizer
// report or abort is a finding; diagnostics are expected and silenced.
// Built only with -DKFUSE_FUZZ=ON and clang (see scripts/fuzz.sh).
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfDialect.h"
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"
#include "tools/kfuse-opt/NestingLimit.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstddef>
#include <cstdint>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    registerAllDialects(*r);
    r->insert<kfuse::kf::KfDialect>();
    kfuse::registerKfusePasses();
    return r;
  }();
  MLIRContext context(*registry);
  context.disableMultithreading();
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler quiet(&context, [](Diagnostic &) { return success(); });
  std::string text(reinterpret_cast<const char *>(data), size);
  // What the tools refuse before parsing (it would overflow the stack).
  if (kfuse::findExcessiveNesting(text))
    return 0;
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  if (!module)
    return 0;
  PassManager pm(&context, ModuleOp::getOperationName());
  pm.addPass(kfuse::createKfToLinalg());
  pm.addPass(kfuse::createKfFormKernels());
  (void)pm.run(*module);
  return 0;
}
