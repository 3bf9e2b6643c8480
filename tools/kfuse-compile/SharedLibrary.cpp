//===- SharedLibrary.cpp - kfuse-compile --emit=lib -----------------------===//
//
// Variants: `<func>__gpu_fused`, `<func>__gpu_eager`, `<func>__host_fused`,
// `<func>__host_eager`, each with the C interface `_mlir_ciface_<name>`
// (memref descriptors by pointer) and its packed twin
// `kfuse_packed_<name>(void **)` (HostObjects.h: for a caller of any
// number of arguments); private functions are renamed the same
// way (without the C interface). Their kernels go to the modules
// `kfuse_<variant>` so that the four link side by side. The string global
// `kfuse_manifest` describes the functions and kernels (kfuse-run reads it).
// Calls are inlined before (InlineCalls.h). LLVM's part of each variant runs
// on a worker thread while the next goes through MLIR, and is written as two
// objects, its launch code unoptimized and its kernels at O3 (HostObjects.h).
//
//===----------------------------------------------------------------------===//
#include "tools/kfuse-compile/SharedLibrary.h"

#include "dialect/Kf/KfOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "tools/kfuse-compile/HostObjects.h"
#include "tools/kfuse-compile/KernelManifest.h"
#include "passes/utils/OutputFile.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace kfuse {
namespace {

LogicalResult fail(const Twine &message) {
  llvm::errs() << "kfuse-compile: error: " << message << "\n";
  return failure();
}

/// Runs the stages `from` to `to` of `pipeline` on `module`.
LogicalResult runStages(ModuleOp module, const LibraryOptions &options,
                        const PipelineOptions &pipeline, Stage from, Stage to) {
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  if (options.configure && failed(options.configure(pm)))
    return failure();
  for (Stage stage :
       {Stage::Linalg, Stage::Kernels, Stage::Gpu, Stage::Ptx, Stage::Llvm})
    if (from <= stage && stage <= to)
      addStagePasses(pm, stage, pipeline);
  // Verified once, at the end (kfuse-compile.cpp's configure says why).
  if (failed(pm.run(module)))
    return failure();
  return mlir::verify(module);
}

constexpr const char *kVariants[] = {"gpu_fused", "host_fused", "gpu_eager",
                                     "host_eager"};

/// The functions the variants rename: every one with a body.
SmallVector<func::FuncOp> definedFunctions(ModuleOp module) {
  SmallVector<func::FuncOp> funcs;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      funcs.push_back(func);
  return funcs;
}

/// Every defined function f, public or private, becomes f__<variant> in
/// each variant, so that the four objects link side by side (a private
/// callee kept its name in all four: "multiple definition"). Such names
/// cannot collide among themselves, but one may be taken by a symbol that
/// is not renamed (a declaration), and a function named `_mlir_ciface_f`
/// would take the C interface of f: both are refused here, named, as is a
/// symbol kept as it is (a declaration) that takes the name of a kernel
/// module (kfuse_<variant>) or of the manifest.
LogicalResult checkVariantNames(ModuleOp module) {
  SymbolTable table(module);
  SmallVector<std::string> reserved = {"kfuse_manifest", "kfuse_host_cpu",
                                       "kfuse_host_features", "kfuse_rt_require_host_cpu"};
  for (StringRef variant : kVariants)
    reserved.push_back("kfuse_" + variant.str());
  for (const std::string &name : reserved)
    if (Operation *other = table.lookup(name))
      if (!isa<func::FuncOp>(other) || cast<func::FuncOp>(other).isExternal())
        return other->emitError() << "the symbol name '" << name
                                  << "' is reserved by kfuse-compile: rename it";
  for (func::FuncOp func : definedFunctions(module)) {
    if (func.getName().starts_with("_mlir_ciface_"))
      return func.emitError()
             << "the function name '" << func.getName()
             << "' is reserved for the C interface of '"
             << func.getName().drop_front(strlen("_mlir_ciface_"))
             << "': rename it";
    for (StringRef variant : kVariants) {
      std::string name = (func.getName() + "__" + variant).str();
      Operation *other = table.lookup(name);
      if (other && !(isa<func::FuncOp>(other) &&
                     !cast<func::FuncOp>(other).isExternal()))
        return other->emitError()
               << "the symbol '" << name << "' is the name of the " << variant
               << " version of '" << func.getName() << "': rename it";
    }
  }
  return success();
}

/// Renames every defined function f to f__<variant>, public ones with a C
/// interface. Longer names go first: `f__host_fused` beside `f` becomes
/// `f__host_fused__host_fused` before `f` takes its name (renaming `f`
/// first would merge the two's uses).
void renameForVariant(ModuleOp module, StringRef variant) {
  SymbolTable table(module);
  SmallVector<func::FuncOp> funcs = definedFunctions(module);
  llvm::stable_sort(funcs, [](func::FuncOp a, func::FuncOp b) {
    return a.getName().size() > b.getName().size();
  });
  for (func::FuncOp func : funcs) {
    std::string name = (func.getName() + "__" + variant).str();
    (void)table.rename(func, StringAttr::get(module.getContext(), name));
    if (func.isPublic())
      func->setAttr("llvm.emit_c_interface", UnitAttr::get(module.getContext()));
  }
}

/// The kernel module of a variant is kfuse_<variant>.
void renameKernelModule(ModuleOp module, StringRef variant) {
  SymbolTable table(module);
  for (auto gpuModule : llvm::to_vector(module.getOps<mlir::gpu::GPUModuleOp>()))
    (void)table.rename(gpuModule,
                       StringAttr::get(module.getContext(), "kfuse_" + variant.str()));
}

/// The temporary files of one build (objects, the linked library), in the
/// system's temporary directory. Each is registered with the signal
/// handlers (fs::TempFile), so that a crash leaves none; all are removed
/// when the build ends, whichever way.
class Temporaries {
public:
  ~Temporaries() {
    for (llvm::sys::fs::TempFile &f : files)
      llvm::consumeError(f.discard());
  }
  /// A new empty file named kfuse-lib-XXXXXX-<name>, or the error.
  FailureOr<std::string> create(StringRef name) {
    SmallString<128> model;
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, model);
    llvm::sys::path::append(model, "kfuse-lib-%%%%%%-" + name);
    llvm::Expected<llvm::sys::fs::TempFile> f = llvm::sys::fs::TempFile::create(model);
    if (!f)
      return fail("cannot create a temporary file: " + llvm::toString(f.takeError()));
    files.push_back(std::move(*f));
    return files.back().TmpName;
  }

private:
  std::vector<llvm::sys::fs::TempFile> files;
};



/// The library's first constructor calls kfuse_rt_require_host_cpu(cpu,
/// features), which refuses a CPU that lacks a feature the host code was
/// compiled with (runtime/HostCpu.h) before the kernel modules load. The
/// constructor is compiled for that CPU too, but is two address loads and
/// a call: no instruction beyond the baseline.
void addHostCpuCheck(llvm::Module &m, llvm::GlobalVariable *cpu,
                     llvm::GlobalVariable *features) {
  llvm::LLVMContext &context = m.getContext();
  auto *ptr = llvm::PointerType::getUnqual(context);
  auto *voidType = llvm::Type::getVoidTy(context);
  llvm::FunctionCallee require = m.getOrInsertFunction(
      "kfuse_rt_require_host_cpu", llvm::FunctionType::get(voidType, {ptr, ptr}, false));
  auto *check = llvm::Function::Create(llvm::FunctionType::get(voidType, false),
                                       llvm::GlobalValue::InternalLinkage,
                                       "kfuse.require_host_cpu", m);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", check));
  b.CreateCall(require, {cpu, features});
  b.CreateRetVoid();
  // 101, the first priority not reserved: before the kernel modules'
  // constructors (MLIR gives those 123).
  llvm::appendToGlobalCtors(m, check, 101);
}

} // namespace

std::string VariantSelection::str() const {
  if (all())
    return "all";
  std::string names;
  for (StringRef variant : kVariants)
    if (has(variant.starts_with("host"), variant.ends_with("fused")))
      names += (names.empty() ? "" : ",") + variant.str();
  return names;
}

llvm::Expected<VariantSelection> parseVariantSelection(StringRef spec) {
  VariantSelection selected;
  selected.gpuFused = selected.hostFused = selected.gpuEager = selected.hostEager = false;
  SmallVector<StringRef> words;
  spec.split(words, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (words.empty())
    return llvm::createStringError("--variants needs all, fused, eager, gpu_fused, "
                                   "host_fused, gpu_eager or host_eager");
  for (StringRef word : words) {
    word = word.trim();
    bool all = word == "all", fused = all || word == "fused", eager = all || word == "eager";
    if (!fused && !eager && !llvm::is_contained(kVariants, word))
      return llvm::createStringError(
          "--variants=" + spec + ": '" + word +
          "' is not a version (all, fused, eager, gpu_fused, host_fused, gpu_eager, "
          "host_eager)");
    selected.gpuFused |= fused || word == "gpu_fused";
    selected.hostFused |= fused || word == "host_fused";
    selected.gpuEager |= eager || word == "gpu_eager";
    selected.hostEager |= eager || word == "host_eager";
  }
  return selected;
}

llvm::Error checkHostCpu(StringRef cpu) {
  auto tm = hostMachine(cpu);
  if (!tm)
    return llvm::createStringError("--host-cpu=" + cpu + ": " +
                                   llvm::toString(tm.takeError()));
  return llvm::Error::success();
}

LogicalResult buildSharedLibrary(ModuleOp module, const LibraryOptions &options) {
  if (failed(checkVariantNames(module)))
    return failure();
  auto cannotCompile = [&](llvm::Error e) {
    return fail("cannot compile for the host CPU '" + options.hostCpu +
                "': " + llvm::toString(std::move(e)));
  };
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm =
      hostMachine(options.hostCpu);
  if (!tm)
    return cannotCompile(tm.takeError());
  Temporaries temporaries;
  // Declared after the temporaries: the pool waits for its jobs before
  // they are removed, on every way out.
  std::vector<std::unique_ptr<ObjectJob>> jobs;
  llvm::DefaultThreadPool pool(llvm::hardware_concurrency());

  std::vector<std::string> objects;
  // The kernels of both versions, for the manifest whatever code is built:
  // the GPU's (and the start of the GPU code: kernel formation once, not
  // twice) and the host's own (its kf-to-linalg differs, f64 moments). A
  // float64 reference's fused version is not formed for the host.
  std::vector<ProgramVariant> variants(2);
  variants[0].name = "eager";
  variants[1].name = "fused";
  for (ProgramVariant &v : variants) {
    PipelineOptions pipeline = options.pipeline;
    pipeline.hostVectorBits = vectorBitsOf(**tm);
    pipeline.fusion.enabled = v.name == "fused";
    for (bool host : {false, true}) {
      if (host && options.float64Reference && v.name == "fused")
        continue;
      pipeline.target = host ? Target::Host : Target::Gpu;
      OwningOpRef<ModuleOp> kernels = module.clone();
      if (failed(runStages(*kernels, options, pipeline, Stage::Linalg, Stage::Kernels)))
        return failure();
      (host ? v.hostKernels : v.kernels) = std::move(kernels);
    }
  }
  // The code: eager first, and the eager host version before the fused
  // ones: its LLVM job (a kernel function per op) overlaps them. The eager
  // GPU version goes before it, not beside its LLVM job: the two are the
  // largest IR of the build (a 1,000-op program: 0.3 GB of MLIR for the
  // GPU one's PTX, 0.25 GB of LLVM for the host one's objects), and side
  // by side they were its peak memory (1.15 GB; 0.8 GB apart). Then the
  // host's fused version, whose LLVM job (O3 on one row kernel of a
  // 1,000-op program: 7 s) overlaps the GPU's.
  ProgramVariant &eager = variants[0], &fused = variants[1];
  const std::pair<ProgramVariant *, bool> order[] = {
      {&eager, false}, {&eager, true}, {&fused, true}, {&fused, false}};
  for (auto [vp, host] : order) {
    ProgramVariant &v = *vp;
    const bool isFused = &v == &fused;
    if (!options.variants.has(host, isFused)) {
      if (!host)
        v.gpuError = options.float64Reference
                         ? "a float64 reference has host eager code only"
                         : "not built: the library holds --variants=" +
                               options.variants.str();
      else
        v.hostCode = false;
      continue;
    }
    PipelineOptions pipeline = options.pipeline;
    pipeline.hostVectorBits = vectorBitsOf(**tm);
    pipeline.fusion.enabled = isFused;
    pipeline.target = host ? Target::Host : Target::Gpu;
    std::string variant = (host ? "host_" : "gpu_") + v.name;
    OwningOpRef<ModuleOp> m = (host ? v.hostKernels : v.kernels)->clone();
    renameForVariant(*m, variant);
    SmallVector<std::string> entries;
    for (func::FuncOp func : definedFunctions(*m))
      entries.push_back(func.getName().str());
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
      ok = runStages(*m, options, pipeline, Stage::Gpu, Stage::Gpu);
      if (succeeded(ok)) {
        renameKernelModule(*m, variant);
        ok = runStages(*m, options, pipeline, Stage::Ptx, Stage::Llvm);
      }
    }
    if (failed(ok)) {
      if (host)
        return failure();
      v.gpuError = gpuError.empty() ? "the GPU pipeline failed" : gpuError;
      continue;
    }
    auto job = std::make_unique<ObjectJob>();
    job->context = std::make_unique<llvm::LLVMContext>();
    job->module = translateModuleToLLVMIR(*m, *job->context);
    if (!job->module)
      return fail("translation of the " + variant + " code to LLVM IR failed");
    // Its memory back before the launch code is cloned: the eager host
    // version of a 1,000-op program is some 400 MB of MLIR.
    m = nullptr;
    job->launch = splitLaunchCode(*job->module, entries, variant);
    FailureOr<std::string> path = temporaries.create(variant + ".o");
    FailureOr<std::string> launchPath = temporaries.create(variant + "-launch.o");
    if (failed(path) || failed(launchPath))
      return failure();
    job->path = *path;
    job->launchPath = *launchPath;
    auto objectTm = hostMachine(options.hostCpu);
    if (!objectTm)
      return cannotCompile(objectTm.takeError());
    auto launchTm = hostMachine(options.hostCpu, llvm::CodeGenOptLevel::None);
    if (!launchTm)
      return cannotCompile(launchTm.takeError());
    job->tm = std::move(*objectTm);
    job->launchTm = std::move(*launchTm);
    objects.push_back(*path);
    objects.push_back(*launchPath);
    ObjectJob *running = job.get();
    jobs.push_back(std::move(job));
    pool.async([running] { running->run(); });
  }

  // The manifest, as a C string the library exports, and the host CPU.
  HostTarget host = describeHostTarget(**tm);
  llvm::json::Array featureList;
  for (StringRef f : llvm::split(host.features, ','))
    featureList.push_back(f.drop_front().str());
  std::string manifest;
  llvm::raw_string_ostream os(manifest);
  writeProgramManifest(os, module, variants, options.pipeline.blockSize,
                       options.pipeline.gpu, options.pipeline.tf32,
                       llvm::json::Object{{"name", host.cpu},
                                          {"requested", options.hostCpu},
                                          {"features", std::move(featureList)}});
  {
    llvm::LLVMContext llvmContext;
    llvm::Module m("kfuse_manifest", llvmContext);
    auto string = [&](StringRef name, StringRef text) {
      auto *init = llvm::ConstantDataArray::getString(llvmContext, text);
      return new llvm::GlobalVariable(m, init->getType(), true,
                                      llvm::GlobalValue::ExternalLinkage, init, name);
    };
    string("kfuse_manifest", manifest);
    addHostCpuCheck(m, string("kfuse_host_cpu", host.cpu),
                    string("kfuse_host_features", host.features));
    FailureOr<std::string> path = temporaries.create("manifest.o");
    if (failed(path))
      return failure();
    if (llvm::Error e = emitObject(m, **tm, *path))
      return fail(llvm::toString(std::move(e)));
    objects.push_back(*path);
  }
  pool.wait();
  for (const std::unique_ptr<ObjectJob> &job : jobs)
    if (job->error)
      return fail(*job->error);

  // Link with the system compiler driver, against the runtime only.
  const char *ccEnv = std::getenv("KFUSE_CC");
  auto cc = llvm::sys::findProgramByName(ccEnv && *ccEnv ? ccEnv : "cc");
  if (!cc)
    return fail("no C compiler driver ('cc', or KFUSE_CC) to link the library");
  FailureOr<std::string> linked = temporaries.create("out.so");
  if (failed(linked))
    return failure();
  std::vector<std::string> args = {*cc, "-shared", "-o", *linked};
  args.insert(args.end(), objects.begin(), objects.end());
  args.insert(args.end(), {"-L" + options.runtimeDir, "-Wl,-rpath," + options.runtimeDir,
                           "-lkfuse_runtime", "-lm"});
  std::vector<StringRef> argRefs(args.begin(), args.end());
  std::string linkError;
  int rc = llvm::sys::ExecuteAndWait(*cc, argRefs, std::nullopt, {}, 0, 0, &linkError);
  if (rc != 0)
    return fail("linking the library failed (" + *cc + " exited with " +
                std::to_string(rc) + (linkError.empty() ? "" : ": " + linkError) + ")");
  // Written whole or not at all: the link went to a temporary file, and
  // writeOutput replaces a regular file only once the copy is complete.
  auto library = llvm::MemoryBuffer::getFile(*linked, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
  if (!library)
    return fail("cannot read the linked library: " + library.getError().message());
  if (llvm::Error e = writeOutput(options.output, (*library)->getBuffer(),
                                  /*executable=*/true))
    return fail(llvm::toString(std::move(e)));
  return success();
}

} // namespace kfuse
