//===- kfuse-compile.cpp - the kfuse compiler driver ----------------------===//
//
// Compiles a kf program and writes any stage of it: kf, linalg, kernels
// (kf.kernel regions), gpu (outlined gpu.func), ptx, llvm (host LLVM IR).
// The stages are the prefixes of the named pipeline kf-gpu-pipeline (built
// from the same PipelineOptions, passes/pipelines/Pipelines.h), so `kfuse-opt
// --kf-gpu-pipeline` with the same options replays exactly what this runs.
// MLIR's pass-manager, context, printing and timing options apply to every
// stage (--mlir-print-ir-after-all, --mlir-timing, --mlir-pass-statistics).
//
//===----------------------------------------------------------------------===//
#include "dialect/Kf/KfDialect.h"
#include "dialect/Kf/KfOps.h"
#include "passes/Passes.h"
#include "passes/pipelines/Pipelines.h"
#include "passes/target/GpuTarget.h"
#include "passes/report/KernelReport.h"
#include "passes/report/ReportFile.h"
#include "tools/KfuseVersion.h"
#include "tools/kfuse-compile/InlineCalls.h"
#include "tools/kfuse-compile/KernelManifest.h"
#include "passes/utils/OutputFile.h"
#include "tools/kfuse-compile/SharedLibrary.h"
#include "tools/kfuse-opt/NestingLimit.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Remarks.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/IR/AsmState.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h" // openInputFile
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <csignal>

using namespace mlir;
namespace cl = llvm::cl;

namespace {

enum class Emit { Kf, Linalg, Kernels, Gpu, Ptx, Llvm, Lib };

/// kfuse-compile's own options, shown first by --help (categories are listed
/// by name: "Compilation" before "Generic" and "MLIR").
cl::OptionCategory kfuseCategory("Compilation options (kfuse-compile)");

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir>"),
                               cl::Required, cl::cat(kfuseCategory));
cl::opt<std::string> outputFile("o", cl::desc("Output file (default: stdout)"),
                                cl::value_desc("path"), cl::init("-"),
                                cl::cat(kfuseCategory));
cl::opt<Emit> emit(
    "emit", cl::desc("What to write"), cl::init(Emit::Ptx),
    cl::values(clEnumValN(Emit::Kf, "kf", "the kf program, verified"),
               clEnumValN(Emit::Linalg, "linalg", "linalg on tensors"),
               clEnumValN(Emit::Kernels, "kernels", "kf.kernel regions"),
               clEnumValN(Emit::Gpu, "gpu", "gpu.launch_func and gpu.func"),
               clEnumValN(Emit::Ptx, "ptx", "the PTX of every kernel"),
               clEnumValN(Emit::Llvm, "llvm", "host LLVM IR with embedded PTX"),
               clEnumValN(Emit::Lib, "lib",
                          "a shared library for kfuse-run (needs -o)")),
    cl::cat(kfuseCategory));
cl::opt<std::string> dumpDir("dump-dir",
                             cl::desc("Write every stage, kernels.json and "
                                      "the kernel graph (.kernels.dot, and "
                                      ".svg with Graphviz) here"),
                             cl::value_desc("dir"), cl::cat(kfuseCategory));
cl::opt<std::string> fusionSpec(
    "fusion",
    cl::desc("on, off (eager: one kernel per op), max-ops=N, and rule "
             "switches such as row-persistent=false, comma-separated (as "
             "kf-form-kernels' options); with --emit=lib, the switches of "
             "the fused version"),
    cl::value_desc("options"), cl::init("on"), cl::cat(kfuseCategory));
cl::opt<std::string> chip("gpu-chip", cl::desc("GPU chip (sm_75 .. sm_90)"),
                          cl::init(kfuse::gpu::kDefaultChip),
                          cl::cat(kfuseCategory));
cl::opt<bool> tf32("tf32",
                   cl::desc("f32 matmuls on tensor cores as TF32 (10 bits of mantissa), "
                            "for chips from sm_80; off by default, as in PyTorch"),
                   cl::init(false), cl::cat(kfuseCategory));
cl::opt<std::string>
    matmulTiles("matmul-tiles",
                cl::desc("the tiles of every tensor-core matmul, MxNxK/WMxWN/STAGES[/GROUP_M] "
                         "(e.g. 128x128x32/2x2/3/8); default: kfuse's table by problem size"),
                cl::value_desc("tiles"), cl::init(""), cl::cat(kfuseCategory));
cl::opt<unsigned> blockSize("block-size", cl::desc("Threads per block"),
                            cl::init(256), cl::cat(kfuseCategory));
cl::opt<std::string> hostCpu(
    "host-cpu",
    cl::desc("CPU the library's host code is compiled for (--emit=lib): "
             "native (the default: this machine's CPU and its features), or "
             "an LLVM CPU name for a library that runs elsewhere, such as "
             "x86-64-v3 (AVX2 and FMA: x86 CPUs since 2013-2015) or x86-64 "
             "(any x86-64 CPU: SSE2 only, softmax 1024x1024 runs 17x slower "
             "than for AVX2). The library "
             "records it, and refuses to load on a CPU without its features"),
    cl::value_desc("cpu"), cl::init("native"), cl::cat(kfuseCategory));

// kfuse-run compiles a private copy of the program (the text its compile
// cache hashed, which a save may have changed on disk since): diagnostics
// name the user's file, not the copy.
cl::opt<std::string> sourceName(
    "source-name",
    cl::desc("The name diagnostics give the input (default: its path)"),
    cl::value_desc("name"), cl::Hidden, cl::cat(kfuseCategory));

cl::opt<bool> float64Reference(
    "float64-reference",
    cl::desc("Compile the program's float64 reference instead (kf-float64-"
             "reference): its float tensors in f64, each function returning "
             "after its values the scale of the error of the program in its "
             "working precision; kfuse-run --check runs it (--reference). "
             "With --emit=lib, the host eager version only. A program "
             "that has none (hand-written kernels, calls, control flow) "
             "exits with status 3"),
    cl::init(false), cl::cat(kfuseCategory));

cl::opt<std::string> variantsSpec(
    "variants",
    cl::desc("With --emit=lib, the versions whose code the library holds: "
             "all (the default), fused, eager, or any of gpu_fused, "
             "host_fused, gpu_eager, host_eager, comma-separated. The "
             "manifest describes the kernels of both fusions either way; "
             "kfuse-run builds what its run needs (fused, or eager with "
             "--fusion=off; the host's only with --device=cpu)"),
    cl::value_desc("list"), cl::init("all"), cl::cat(kfuseCategory));

/// The exit status of a refused --float64-reference (kfuse-run's
/// kNoFloat64ReferenceExit): --check then compares with the unfused run.
constexpr int kNoFloat64ReferenceExit = 3;

// Test only: a known bug in the fused version (kf-plant-mutation), which
// the tests of kfuse-run --check must catch.
cl::opt<std::string> plantMutation(
    "plant-mutation", cl::desc("off-by-one, drop-term or f16-accumulator"),
    cl::value_desc("kind"), cl::Hidden, cl::cat(kfuseCategory));

cl::opt<std::string> remarksFilter(
    "remarks-filter",
    cl::desc("Print the optimization remarks whose category matches this "
             "regex, as kfuse-opt does (kf-form-kernels: every fusion "
             "decision)"),
    cl::value_desc("regex"), cl::cat(kfuseCategory));

int fail(const Twine &message) {
  llvm::errs() << "kfuse-compile: error: " << message << "\n";
  return 1;
}

int fail(llvm::Error error) { return fail(llvm::toString(std::move(error))); }

/// --help lists kfuse-compile's options, then MLIR's (--mlir-*: IR
/// printing, timing, statistics, threading), and hides the hundreds of
/// LLVM backend options linked in with the NVPTX and host targets.
void hideUnrelatedOptions() {
  static cl::OptionCategory mlirCategory("MLIR options");
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (name.starts_with("mlir-"))
      option->addCategory(mlirCategory);
  cl::HideUnrelatedOptions({&kfuseCategory, &mlirCategory});
}

/// The pipeline's options from the command line: the fusion switches in
/// kf-form-kernels' words, the chip and the block size, checked here once.
FailureOr<kfuse::PipelineOptions> pipelineOptions(MLIRContext &context) {
  auto refuse = [](const Twine &why) { fail(why); };
  FailureOr<kfuse::fusion::FusionOptions> fusion;
  {
    // The parser reports through a diagnostic: said as the other refusals.
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
      refuse("--fusion=" + fusionSpec + ": " + d.str());
      return success();
    });
    fusion = kfuse::fusion::parseFusionOptions(
        fusionSpec, [&] { return emitError(UnknownLoc::get(&context)); });
  }
  if (failed(fusion))
    return failure();
  FailureOr<kfuse::gpu::GpuTarget> gpu = kfuse::gpu::gpuTargetOf(chip, refuse);
  if (failed(gpu))
    return failure();
  kfuse::PipelineOptions options;
  options.fusion = *fusion;
  options.gpu = *gpu;
  options.tf32 = tf32;
  options.matmulTiles = matmulTiles;
  options.blockSize = blockSize;
  options.mutation = plantMutation;
  return kfuse::checkPipelineOptions(options, refuse);
}

/// MLIR's --mlir-* options on a pass manager, its timing nested in `timing`.
/// The IR is verified once at the end of each run (mlir::verify), not after
/// every pass: once the kernels are outlined, the GPU dialect's verifier
/// looks every launch's kernel up by a walk of its module, so each
/// verification is quadratic in the kernels (a 1,000-op program: 3,400
/// launches, 11% of the compile time over some 40 passes per variant).
/// kfuse-opt still verifies after every pass.
LogicalResult configure(PassManager &pm, TimingScope &timing) {
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  pm.enableVerifier(false);
  if (timing)
    pm.enableTiming(timing);
  return success();
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
  if (llvm::Error error = kfuse::writeOutput(path, contents))
    return fail(std::move(error)), failure();
  return success();
}

/// The kernel graph's file name in --dump-dir: the function's, when the
/// program has one, else the input's; safe characters only.
std::string kernelGraphStem(ModuleOp module) {
  SmallVector<func::FuncOp> funcs;
  for (auto f : module.getOps<func::FuncOp>())
    if (!f.isExternal())
      funcs.push_back(f);
  std::string stem = funcs.size() == 1 ? funcs[0].getName().str()
                     : inputFile == "-"
                         ? std::string("module")
                         : llvm::sys::path::stem(inputFile).str();
  for (char &c : stem)
    if (!llvm::isAlnum(c) && c != '_' && c != '-' && c != '.')
      c = '_';
  return stem;
}

/// Writes the fused kernels as Graphviz (kf-kernel-report's format=dot, on
/// the kf program as compiled) to `dot`, then, when Graphviz's `dot` is on
/// PATH, renders it to `svg`. A failure of `dot` is only a warning: the
/// picture is an extra, the compilation succeeded.
LogicalResult writeKernelGraph(ModuleOp kfProgram,
                               const kfuse::PipelineOptions &options,
                               StringRef dot, StringRef svg) {
  // Its fusion decisions were remarked on once already (--remarks-filter).
  ScopedDiagnosticHandler quiet(kfProgram.getContext(), [](Diagnostic &d) {
    return success(d.getSeverity() == DiagnosticSeverity::Remark);
  });
  PassManager pm(kfProgram.getContext(), ModuleOp::getOperationName());
  pm.addPass(kfuse::report::createKernelGraphReport(options.fusion, dot));
  if (failed(pm.run(kfProgram)))
    return failure(); // the pass reported why
  if (llvm::Error error = kfuse::report::renderSvg(dot, svg))
    llvm::errs() << "kfuse-compile: warning: "
                 << llvm::toString(std::move(error)) << "\n";
  return success();
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // A write past the file-size limit (ulimit -f, a full disk's stand-in)
  // fails with EFBIG and is reported with its path, the temporaries
  // removed, instead of SIGXFSZ killing the compiler without a word. Set
  // after InitLLVM, whose handlers would take SIGXFSZ; the linker inherits it.
  std::signal(SIGXFSZ, SIG_IGN);
  registerAllPasses();
  kfuse::registerKfusePasses();
  kfuse::registerKfusePipelines();
  registerPassManagerCLOptions();
  registerMLIRContextCLOptions();
  registerAsmPrinterCLOptions();
  registerDefaultTimingManagerCLOptions();
  hideUnrelatedOptions();
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << kfuse::versionText("kfuse-compile");
  });
  cl::ParseCommandLineOptions(argc, argv, "kfuse compiler driver\n");

  if (emit == Emit::Lib && outputFile == "-")
    return fail("--emit=lib writes a shared library: give its path with -o");
  if (dumpDir.getNumOccurrences() && dumpDir.empty())
    return fail("--dump-dir needs a directory (an empty one would be the "
                "current directory)");
  if (emit == Emit::Lib && !dumpDir.empty())
    return fail("--dump-dir goes with the text stages, not --emit=lib");
  llvm::Expected<kfuse::VariantSelection> selected =
      kfuse::parseVariantSelection(variantsSpec);
  if (!selected)
    return fail(llvm::toString(selected.takeError()));
  if (variantsSpec.getNumOccurrences() && emit != Emit::Lib)
    return fail("--variants chooses the versions of a library: it goes with --emit=lib");
  if (float64Reference && !selected->all() &&
      selected->str() != "host_eager")
    return fail("--float64-reference builds the host eager version only: leave out "
                "--variants=" + variantsSpec);
  if (float64Reference)
    *selected = *kfuse::parseVariantSelection("host_eager");
  if (llvm::Error error = kfuse::checkOutputPath(outputFile, inputFile))
    return fail(std::move(error));
  if (llvm::Error error = kfuse::checkHostCpu(hostCpu))
    return fail(std::move(error));

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<kfuse::kf::KfDialect>();
  MLIRContext context(registry);
  FailureOr<kfuse::PipelineOptions> options = pipelineOptions(context);
  if (failed(options))
    return 1;
  if (!remarksFilter.empty()) {
    // Printed as diagnostics (file:line:col: remark: ...), every kind.
    std::string regex = remarksFilter;
    remark::RemarkCategories categories{regex, regex, regex, regex, regex};
    if (failed(remark::enableOptimizationRemarks(
            context, nullptr, std::make_unique<remark::RemarkEmittingPolicyAll>(),
            categories, /*printAsEmitRemarks=*/true)))
      return fail("cannot print the remarks");
  }
  context.printOpOnDiagnostic(false); // the message and location suffice
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::string error;
  auto input = openInputFile(inputFile, &error);
  if (!input)
    return fail(error);
  if (!sourceName.empty())
    input = llvm::MemoryBuffer::getMemBufferCopy(input->getBuffer(), sourceName);
  unsigned bufferId = sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  if (kfuse::reportExcessiveNesting(sourceMgr, bufferId))
    return 1;
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1; // the parser reported where
  if (llvm::none_of(module->getOps<func::FuncOp>(),
                    [](func::FuncOp f) { return !f.isExternal(); }))
    return fail(std::string(sourceName.empty() ? inputFile : sourceName) +
                " defines no function to compile");

  // Each stage's text, for --dump-dir or the stage --emit asks for; the
  // others stay empty (printing every stage of an eager 1,000-op program
  // took half of its --emit=ptx time).
  auto wanted = [&](Emit stage) { return !dumpDir.empty() || emit == stage; };
  // The program as given, before its calls are inlined (see InlineCalls.h).
  std::vector<std::pair<std::string, std::string>> dumps = {
      {"01-kf.mlir", wanted(Emit::Kf) ? printed(*module) : std::string()}};
  if (failed(kfuse::inlineCalls(*module)))
    return 1;
  if (float64Reference) {
    PassManager pm(&context, ModuleOp::getOperationName());
    pm.addPass(kfuse::createKfFloat64Reference(
        kfuse::KfFloat64ReferenceOptions{/*bounds=*/true, /*tf32=*/tf32}));
    // The pass said which op has no reference; the distinct status tells
    // kfuse-run --check to compare with the unfused run instead.
    if (failed(pm.run(*module)))
      return kNoFloat64ReferenceExit;
    if (wanted(Emit::Kf))
      dumps.front().second = printed(*module); // --emit=kf shows the reference
  }
  // The program as compiled, for the kernel graph of --dump-dir.
  OwningOpRef<ModuleOp> kfStage;
  if (!dumpDir.empty())
    kfStage = module->clone();

  if (emit == Emit::Lib) {
    // libkfuse_runtime.so is in lib/ next to this tool's bin/.
    std::string self = llvm::sys::fs::getMainExecutable(argv[0], (void *)&hideUnrelatedOptions);
    SmallString<128> runtimeDir(llvm::sys::path::parent_path(
        llvm::sys::path::parent_path(self)));
    llvm::sys::path::append(runtimeDir, "lib");
    DefaultTimingManager tm;
    applyDefaultTimingManagerCLOptions(tm);
    TimingScope timing = tm.getRootScope();
    kfuse::LibraryOptions library{
        *options, [&](PassManager &pm) { return configure(pm, timing); },
        hostCpu, outputFile, runtimeDir.str().str(), *selected, float64Reference};
    return failed(kfuse::buildSharedLibrary(*module, library)) ? 1 : 0;
  }

  // Run the stages in order, keeping what --dump-dir and kernels.json need.
  // One timing report for all of them.
  DefaultTimingManager tm;
  applyDefaultTimingManagerCLOptions(tm);
  TimingScope timing = tm.getRootScope();
  OwningOpRef<ModuleOp> kernelsStage, gpuStage;
  struct Stage {
    kfuse::Stage stage;
    Emit emit;
    const char *name; // in the --mlir-timing report
    const char *file;
  };
  const Stage stages[] = {
      {kfuse::Stage::Linalg, Emit::Linalg, "stage linalg", "02-linalg.mlir"},
      {kfuse::Stage::Kernels, Emit::Kernels, "stage kernels", "03-kernels.mlir"},
      {kfuse::Stage::Gpu, Emit::Gpu, "stage gpu", "04-gpu.mlir"},
      {kfuse::Stage::Ptx, Emit::Ptx, "stage ptx", "05-kernels.ptx"},
      {kfuse::Stage::Llvm, Emit::Llvm, "stage llvm", "06-host.mlir"}};
  Emit last = dumpDir.empty() ? emit.getValue() : Emit::Llvm;
  for (const Stage &s : stages) {
    if (last < s.emit)
      break;
    PassManager pm(&context, ModuleOp::getOperationName());
    TimingScope stageTiming = timing.nest(s.name);
    if (failed(configure(pm, stageTiming)))
      return 1;
    kfuse::addStagePasses(pm, s.stage, *options);
    if (failed(pm.run(*module)) || failed(mlir::verify(*module)))
      return 1; // the pass (or the verifier) reported what and where
    dumps.push_back({s.file, !wanted(s.emit)        ? std::string()
                             : s.emit == Emit::Ptx ? ptxOf(*module)
                                                   : printed(*module)});
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
    kfuse::writeKernelManifest(os, *kernelsStage, *gpuStage, options->blockSize,
                               options->gpu, options->tf32, options->matmulTiles);
    dumps.push_back({"kernels.json", manifest});
    if (std::error_code ec = llvm::sys::fs::create_directories(dumpDir))
      return fail("cannot create " + dumpDir + ": " + ec.message());
    std::string stem = kernelGraphStem(*kfStage);
    SmallString<128> dotPath(dumpDir), svgPath(dumpDir);
    llvm::sys::path::append(dotPath, stem + ".kernels.dot");
    llvm::sys::path::append(svgPath, stem + ".kernels.svg");
    // No dump may replace the input (`--dump-dir .` beside 01-kf.mlir).
    for (auto &[name, text] : dumps) {
      SmallString<128> path(dumpDir);
      llvm::sys::path::append(path, name);
      if (llvm::Error error =
              kfuse::checkOutputPath(path, inputFile, "--dump-dir file"))
        return fail(std::move(error));
    }
    for (StringRef path : {dotPath.str(), svgPath.str()})
      if (llvm::Error error =
              kfuse::checkOutputPath(path, inputFile, "--dump-dir file"))
        return fail(std::move(error));
    for (auto &[name, text] : dumps) {
      SmallString<128> path(dumpDir);
      llvm::sys::path::append(path, name);
      if (failed(writeFile(path, text)))
        return 1;
    }
    if (failed(writeKernelGraph(*kfStage, *options, dotPath, svgPath)))
      return 1;
  }
  return failed(writeFile(outputFile, result)) ? 1 : 0;
}
