//===- SharedLibrary.cpp - kfuse-compile --emit=lib -----------------------===//
//
// Variants: `<func>__gpu_fused`, `<func>__gpu_eager`, `<func>__host_fused`,
// `<func>__host_eager`, each with the C interface `_mlir_ciface_<name>`
// (memref descriptors by pointer). Their kernels go to the modules
// `kfuse_<variant>` so that the four link side by side. The string global
// `kfuse_manifest` describes the functions and kernels (kfuse-run reads it).
//
//===----------------------------------------------------------------------===//
#include "tools/kfuse-compile/SharedLibrary.h"

#include "passes/Passes.h"
#include "tools/kfuse-compile/KernelManifest.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;

namespace kfuse {
namespace {

LogicalResult fail(const Twine &message) {
  llvm::errs() << "kfuse-compile: error: " << message << "\n";
  return failure();
}

LogicalResult runPipeline(ModuleOp module, StringRef pipeline) {
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  if (failed(parsePassPipeline(pipeline, pm)))
    return fail("internal error: a pipeline does not parse: " + pipeline);
  return pm.run(module);
}

/// Renames every defined public function f to f__<variant>, with a C
/// interface, and the kernel module to kfuse_<variant>.
void renameForVariant(ModuleOp module, StringRef variant) {
  SymbolTable table(module);
  for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (func.isExternal() || !func.isPublic())
      continue;
    std::string name = (func.getName() + "__" + variant).str();
    (void)table.rename(func, StringAttr::get(module.getContext(), name));
    func->setAttr("llvm.emit_c_interface", UnitAttr::get(module.getContext()));
  }
}

void renameKernelModule(ModuleOp module, StringRef variant) {
  SymbolTable table(module);
  for (auto gpuModule : llvm::to_vector(module.getOps<gpu::GPUModuleOp>()))
    (void)table.rename(gpuModule,
                       StringAttr::get(module.getContext(), "kfuse_" + variant.str()));
}

std::unique_ptr<llvm::TargetMachine> hostMachine(StringRef cpu, std::string &why) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, why);
  if (!target)
    return nullptr;
  std::string cpuName = cpu == "native" ? llvm::sys::getHostCPUName().str() : cpu.str();
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, cpuName, "", llvm::TargetOptions(), llvm::Reloc::PIC_));
  if (!tm)
    why = "no target machine for " + triple.str() + " " + cpuName;
  return tm;
}

/// Optimizes `llvmModule` for the host and writes it as an object file.
LogicalResult emitObject(llvm::Module &llvmModule, llvm::TargetMachine &tm,
                         StringRef path) {
  llvmModule.setTargetTriple(tm.getTargetTriple());
  llvmModule.setDataLayout(tm.createDataLayout());
  // LLVM's O3, without the SLP vectorizer: it packs the launch code's
  // memref descriptors into <4 x ptr> stores of vector GEPs, on which x86
  // instruction selection ran for minutes (an eager layer_norm program of
  // kf_fuzz.py, dynamic seed 6). Loops are still vectorized.
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = false;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&tm, tuning);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3)
      .run(llvmModule, mam);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return fail("cannot write " + path + ": " + ec.message());
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::ObjectFile))
    return fail("the host target cannot emit object files");
  pm.run(llvmModule);
  return success();
}

} // namespace

LogicalResult buildSharedLibrary(ModuleOp module, const LibraryOptions &options) {
  std::string why;
  std::unique_ptr<llvm::TargetMachine> tm = hostMachine(options.hostCpu, why);
  if (!tm)
    return fail("cannot compile for the host CPU '" + options.hostCpu + "': " + why);
  SmallString<128> dir;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("kfuse-lib", dir))
    return fail("cannot create a temporary directory: " + ec.message());
  auto cleanup = llvm::make_scope_exit([&] { llvm::sys::fs::remove_directories(dir); });

  std::vector<std::string> objects;
  std::vector<ProgramVariant> variants;
  for (StringRef fusion : {"fused", "eager"}) {
    ProgramVariant v;
    v.name = fusion.str();
    std::string mode = fusion == "fused" ? "on" : "none";
    OwningOpRef<ModuleOp> kernels = module.clone();
    if (failed(runPipeline(*kernels, gpuPipeline(GpuStage::Kernels, options.chip, mode,
                                                 options.blockSize))))
      return failure();
    v.kernels = std::move(kernels);
    for (bool host : {false, true}) {
      std::string variant = (host ? "host_" : "gpu_") + fusion.str();
      OwningOpRef<ModuleOp> m = module.clone();
      renameForVariant(*m, variant);
      std::string upToGpu = gpuPipeline(GpuStage::Gpu, options.chip, mode,
                                        options.blockSize, host);
      std::string full = host ? hostRuntimePipeline(mode, options.blockSize)
                              : gpuPipeline(GpuStage::Llvm, options.chip, mode,
                                            options.blockSize);
      std::string gpuError;
      LogicalResult ok = success();
      {
        // The GPU versions may be refused (a kernel the GPU mapping does
        // not serve yet): that is recorded, not fatal. The host versions
        // must compile.
        std::optional<ScopedDiagnosticHandler> capture;
        if (!host)
          capture.emplace(module.getContext(), [&](Diagnostic &d) {
            if (d.getSeverity() == DiagnosticSeverity::Error && gpuError.empty())
              gpuError = d.str();
            return success();
          });
        ok = runPipeline(*m, upToGpu);
        if (succeeded(ok)) {
          renameKernelModule(*m, variant);
          ok = runPipeline(*m, StringRef(full).drop_front(upToGpu.size() + 1));
        }
      }
      if (failed(ok)) {
        if (host)
          return failure();
        v.gpuError = gpuError.empty() ? "the GPU pipeline failed" : gpuError;
        continue;
      }
      llvm::LLVMContext llvmContext;
      auto llvmModule = translateModuleToLLVMIR(*m, llvmContext);
      if (!llvmModule)
        return fail("translation of the " + variant + " code to LLVM IR failed");
      SmallString<128> path(dir);
      llvm::sys::path::append(path, variant + ".o");
      if (failed(emitObject(*llvmModule, *tm, path)))
        return failure();
      objects.push_back(path.str().str());
    }
    variants.push_back(std::move(v));
  }

  // The manifest, as a C string the library exports.
  std::string manifest;
  llvm::raw_string_ostream os(manifest);
  writeProgramManifest(os, module, variants, options.blockSize, options.chip);
  {
    llvm::LLVMContext llvmContext;
    llvm::Module m("kfuse_manifest", llvmContext);
    auto *init = llvm::ConstantDataArray::getString(llvmContext, manifest);
    new llvm::GlobalVariable(m, init->getType(), true,
                             llvm::GlobalValue::ExternalLinkage, init, "kfuse_manifest");
    SmallString<128> path(dir);
    llvm::sys::path::append(path, "manifest.o");
    if (failed(emitObject(m, *tm, path)))
      return failure();
    objects.push_back(path.str().str());
  }

  // Link with the system compiler driver, against the runtime only.
  const char *ccEnv = std::getenv("KFUSE_CC");
  auto cc = llvm::sys::findProgramByName(ccEnv && *ccEnv ? ccEnv : "cc");
  if (!cc)
    return fail("no C compiler driver ('cc', or KFUSE_CC) to link the library");
  SmallString<128> tmpOut(dir);
  llvm::sys::path::append(tmpOut, "out.so");
  std::vector<std::string> args = {*cc, "-shared", "-o", tmpOut.str().str()};
  args.insert(args.end(), objects.begin(), objects.end());
  args.insert(args.end(), {"-L" + options.runtimeDir, "-Wl,-rpath," + options.runtimeDir,
                           "-lkfuse_runtime", "-lm"});
  std::vector<StringRef> argRefs(args.begin(), args.end());
  std::string linkError;
  int rc = llvm::sys::ExecuteAndWait(*cc, argRefs, std::nullopt, {}, 0, 0, &linkError);
  if (rc != 0)
    return fail("linking the library failed (" + *cc + " exited with " +
                std::to_string(rc) + (linkError.empty() ? "" : ": " + linkError) + ")");
  // Written whole or not at all: the link went to a temporary file.
  if (std::error_code ec = llvm::sys::fs::copy_file(tmpOut, options.output + ".tmp"))
    return fail("cannot write " + options.output + ": " + ec.message());
  if (std::error_code ec = llvm::sys::fs::rename(options.output + ".tmp", options.output))
    return fail("cannot write " + options.output + ": " + ec.message());
  return success();
}

} // namespace kfuse
