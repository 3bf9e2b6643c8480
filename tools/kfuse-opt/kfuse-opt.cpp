//===- kfuse-opt.cpp - mlir-opt with the kf dialect and kfuse passes ------===//
//
// MlirOptMain's own driver, with two steps more: input nested deeper than
// kMaxNesting is refused before the parser recurses into it (see
// NestingLimit.h), and an -o file is written whole once the passes are
// done, as kfuse-compile writes its outputs (passes/utils/OutputFile.h).
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfDialect.h"
#include "passes/Passes.h"
#include "passes/report/ReportFile.h"
#include "passes/utils/OutputFile.h"
#include "dialect/Kf/KfOps.h"
#include "test/lib/TestPasses.h"
#include "tools/KfuseVersion.h"
#include "tools/kfuse-opt/NestingLimit.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::registerAllPasses();
  kfuse::registerKfusePasses();
  kfuse::registerKfusePipelines();
  kfuse::registerKfuseTestPasses();
  kfuse::registerKfuseTestPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates device code to LLVM IR in-process.
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<kfuse::kf::KfDialect>();

  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << kfuse::versionText("kfuse-opt");
  });
  auto [inputFile, outputFile] = mlir::registerAndParseCLIOptions(
      argc, argv, "kfuse optimizer driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFile, outputFile, registry));

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = mlir::openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  {
    // The buffer goes on to MlirOptMain: the check reads a reference to it.
    llvm::SourceMgr sourceMgr;
    unsigned id = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(input->getMemBufferRef()), llvm::SMLoc());
    if (kfuse::reportExcessiveNesting(sourceMgr, id))
      return 1;
  }
  // kf-kernel-report's report-file may not be the -o file (the report
  // would replace the IR, or the IR the report): the pass refuses it.
  kfuse::report::setToolOutput(outputFile);
  if (outputFile == "-")
    return mlir::failed(
        mlir::MlirOptMain(llvm::outs(), std::move(input), registry, config));
  // A file is written once the passes succeed, whole (passes/utils/
  // OutputFile.h): a failed run leaves what stood there, and the passes
  // find -o's file as it was (not created and truncated before they run).
  std::string text;
  llvm::raw_string_ostream os(text);
  if (mlir::failed(mlir::MlirOptMain(os, std::move(input), registry, config)))
    return 1;
  if (llvm::Error e = kfuse::writeOutput(outputFile, text)) {
    llvm::errs() << "kfuse-opt: error: " << llvm::toString(std::move(e)) << "\n";
    return 1;
  }
  return 0;
}
