//===- kfuse-compile.cpp - the kfuse compiler driver ----------------------===//
//
// Compiles a kf program and writes any stage of it: kf, linalg, kernels
// (kf.kernel regions), gpu (outlined gpu.func), ptx, llvm (host LLVM IR).
// The stages are the prefixes of the named pipeline kf-gpu-pipeline, so
// `kfuse-opt --kf-gpu-pipeline` replays exactly what this runs.
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfDialect.h"
#include "passes/Passes.h"
#include "dialect/Kf/KfOps.h"
#include "passes/gpu/GpuTarget.h"
#include "tools/kfuse-compile/InlineCalls.h"
#include "tools/kfuse-compile/KernelManifest.h"
#include "tools/kfuse-compile/OutputFile.h"
#include "tools/kfuse-compile/SharedLibrary.h"
#include "tools/kfuse-opt/NestingLimit.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h" // openInputFile
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {

enum class Emit { Kf, Linalg, Kernels, Gpu, Ptx, Llvm, Lib };

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir>"),
                               cl::Required);
cl::opt<std::string> outputFile("o", cl::desc("Output file (default: stdout)"),
                                cl::value_desc("path"), cl::init("-"));
cl::opt<Emit> emit(
    "emit", cl::desc("What to write"), cl::init(Emit::Ptx),
    cl::values(clEnumValN(Emit::Kf, "kf", "the kf program, verified"),
               clEnumValN(Emit::Linalg, "linalg", "linalg on tensors"),
               clEnumValN(Emit::Kernels, "kernels", "kf.kernel regions"),
               clEnumValN(Emit::Gpu, "gpu", "gpu.launch_func and gpu.func"),
               clEnumValN(Emit::Ptx, "ptx", "the PTX of every kernel"),
               clEnumValN(Emit::Llvm, "llvm", "host LLVM IR with embedded PTX"),
               clEnumValN(Emit::Lib, "lib",
                          "a shared library for kfuse-run (needs -o)")));
cl::opt<std::string> dumpDir("dump-dir",
                             cl::desc("Write every stage and kernels.json here"),
                             cl::value_desc("dir"));
cl::opt<std::string> fusion("fusion", cl::desc("on, or off for eager kernels"),
                            cl::init("on"));
cl::opt<std::string> chip("gpu-chip", cl::desc("GPU chip (sm_75 .. sm_90)"),
                          cl::init(kfuse::gpu::kDefaultChip));
cl::opt<unsigned> blockSize("block-size", cl::desc("Threads per block"),
                            cl::init(256));
cl::opt<std::string> hostCpu(
    "host-cpu",
    cl::desc("CPU the library's host code is compiled for (--emit=lib): an "
             "LLVM CPU name, or native"),
    cl::init("x86-64-v3"));

int fail(const Twine &message) {
  llvm::errs() << "kfuse-compile: error: " << message << "\n";
  return 1;
}

/// The passes between two stages of the GPU pipeline.
std::string stagePasses(kfuse::GpuStage from, std::optional<kfuse::GpuStage> prev,
                        StringRef fusionMode) {
  std::string all = kfuse::gpuPipeline(from, chip, fusionMode, blockSize);
  if (!prev)
    return all;
  std::string before = kfuse::gpuPipeline(*prev, chip, fusionMode, blockSize);
  return all.substr(before.size() + 1);
}

std::string printed(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os);
  return s;
}

/// The PTX of every kernel module, each under a comment naming it.
std::string ptxOf(ModuleOp module) {
  std::string s;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      s += "// kernel module @" + binary.getName().str() + "\n";
      s += object.getObject().getValue().str();
    }
  });
  return s;
}

LogicalResult writeFile(StringRef path, StringRef contents) {
  if (std::optional<std::string> error = kfuse::writeOutput(path, contents))
    return fail(*error), failure();
  return success();
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllPasses();
  kfuse::registerKfusePasses();
  kfuse::registerKfusePipelines();
  cl::ParseCommandLineOptions(argc, argv, "kfuse compiler driver\n");

  if (auto error = kfuse::gpu::checkChip(chip))
    return fail(*error);
  if (fusion != "on" && fusion != "off")
    return fail("--fusion must be 'on' or 'off', got '" + fusion + "'");
  if (blockSize == 0 || blockSize > 1024 || blockSize % 32 != 0)
    return fail("--block-size must be a multiple of 32 from 32 to 1024");
  if (emit == Emit::Lib && outputFile == "-")
    return fail("--emit=lib writes a shared library: give its path with -o");
  if (dumpDir.getNumOccurrences() && dumpDir.empty())
    return fail("--dump-dir needs a directory (an empty one would be the "
                "current directory)");
  if (emit == Emit::Lib && !dumpDir.empty())
    return fail("--dump-dir goes with the text stages, not --emit=lib");
  if (auto error = kfuse::checkOutputPath(outputFile, inputFile))
    return fail(*error);
  if (auto error = kfuse::checkHostCpu(hostCpu))
    return fail(*error);
  std::string fusionMode = fusion == "on" ? "on" : "none";

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<kfuse::kf::KfDialect>();
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false); // the message and location suffice
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::string error;
  auto input = openInputFile(inputFile, &error);
  if (!input)
    return fail(error);
  unsigned bufferId = sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  if (kfuse::reportExcessiveNesting(sourceMgr, bufferId))
    return 1;
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1; // the parser reported where
  if (llvm::none_of(module->getOps<func::FuncOp>(),
                    [](func::FuncOp f) { return !f.isExternal(); }))
    return fail(inputFile + " defines no function to compile");

  // The program as given, before its calls are inlined (see InlineCalls.h).
  std::vector<std::pair<std::string, std::string>> dumps = {
      {"01-kf.mlir", printed(*module)}};
  if (failed(kfuse::inlineCalls(*module)))
    return 1;

  if (emit == Emit::Lib) {
    // libkfuse_runtime.so is in lib/ next to this tool's bin/.
    std::string self = llvm::sys::fs::getMainExecutable(argv[0], (void *)&fail);
    SmallString<128> runtimeDir(llvm::sys::path::parent_path(
        llvm::sys::path::parent_path(self)));
    llvm::sys::path::append(runtimeDir, "lib");
    kfuse::LibraryOptions options{chip, blockSize, hostCpu, outputFile,
                                  runtimeDir.str().str()};
    return failed(kfuse::buildSharedLibrary(*module, options)) ? 1 : 0;
  }

  // Run the stages in order, keeping what --dump-dir and kernels.json need.
  OwningOpRef<ModuleOp> kernelsStage, gpuStage;
  struct Stage {
    kfuse::GpuStage stage;
    Emit emit;
    const char *file;
  };
  const Stage stages[] = {{kfuse::GpuStage::Linalg, Emit::Linalg, "02-linalg.mlir"},
                          {kfuse::GpuStage::Kernels, Emit::Kernels, "03-kernels.mlir"},
                          {kfuse::GpuStage::Gpu, Emit::Gpu, "04-gpu.mlir"},
                          {kfuse::GpuStage::Ptx, Emit::Ptx, "05-kernels.ptx"},
                          {kfuse::GpuStage::Llvm, Emit::Llvm, "06-host.mlir"}};
  Emit last = dumpDir.empty() ? emit.getValue() : Emit::Llvm;
  std::optional<kfuse::GpuStage> prev;
  for (const Stage &s : stages) {
    if (last < s.emit)
      break;
    PassManager pm(&context, ModuleOp::getOperationName());
    if (failed(parsePassPipeline(stagePasses(s.stage, prev, fusionMode), pm)))
      return fail("internal error: a stage pipeline does not parse");
    if (failed(pm.run(*module)))
      return 1; // the pass reported what and where
    prev = s.stage;
    dumps.push_back({s.file, s.emit == Emit::Ptx ? ptxOf(*module) : printed(*module)});
    if (s.emit == Emit::Kernels)
      kernelsStage = module->clone();
    if (s.emit == Emit::Gpu)
      gpuStage = module->clone();
  }

  // A kernel that calls a libdevice function it could not link would fail
  // to load on the GPU: say so now.
  if (last >= Emit::Ptx && ptxOf(*module).find(".extern .func") != std::string::npos)
    return fail("a kernel calls a CUDA libdevice function (erf, tanh, pow, "
                "...) and no CUDA toolkit with nvvm/libdevice was found: set "
                "CUDA_ROOT");

  std::string result;
  if (emit == Emit::Ptx) {
    result = ptxOf(*module);
  } else if (emit == Emit::Llvm) {
    llvm::LLVMContext llvmContext;
    auto llvmModule = translateModuleToLLVMIR(*module, llvmContext);
    if (!llvmModule)
      return fail("translation to LLVM IR failed");
    llvm::raw_string_ostream os(result);
    llvmModule->print(os, nullptr);
  } else {
    // kf, linalg, kernels, gpu: the IR at that stage.
    result = dumps[static_cast<int>(emit.getValue())].second;
  }

  if (!dumpDir.empty()) {
    std::string manifest;
    llvm::raw_string_ostream os(manifest);
    kfuse::writeKernelManifest(os, *kernelsStage, *gpuStage, blockSize, chip);
    dumps.push_back({"kernels.json", manifest});
    if (std::error_code ec = llvm::sys::fs::create_directories(dumpDir))
      return fail("cannot create " + dumpDir + ": " + ec.message());
    // No dump may replace the input (`--dump-dir .` beside 01-kf.mlir).
    for (auto &[name, text] : dumps) {
      SmallString<128> path(dumpDir);
      llvm::sys::path::append(path, name);
      if (auto error = kfuse::checkOutputPath(path, inputFile, "--dump-dir file"))
        return fail(*error);
    }
    for (auto &[name, text] : dumps) {
      SmallString<128> path(dumpDir);
      llvm::sys::path::append(path, name);
      if (failed(writeFile(path, text)))
        return 1;
    }
  }
  return failed(writeFile(outputFile, result)) ? 1 : 0;
}
