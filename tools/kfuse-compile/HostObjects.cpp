//===- HostObjects.cpp - the host objects of a library -------------------===//
#include "tools/kfuse-compile/HostObjects.h"
#include "tools/kfuse-compile/SplitFunctions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/IPO/MergeFunctions.h"
#include "llvm/Transforms/Scalar/InstSimplifyPass.h"
#include "llvm/Transforms/Scalar/DCE.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"

using llvm::ArrayRef;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;
using llvm::SmallVector;
using llvm::StringRef;

namespace kfuse {
namespace {

/// MergeFunctions leaves each duplicate a thunk (a tail call of the one
/// kept); O3's inliner would copy the kept function back into every thunk,
/// and optimize each copy again. The kept functions are made noinline.
void keepMergedFunctionsApart(llvm::Module &llvmModule) {
  for (llvm::Function &fn : llvmModule) {
    if (fn.isDeclaration() || fn.size() != 1 || fn.front().size() != 2)
      continue;
    auto *call = llvm::dyn_cast<llvm::CallInst>(&fn.front().front());
    if (call && call->getCalledFunction() && !call->getCalledFunction()->isDeclaration())
      call->getCalledFunction()->addFnAttr(llvm::Attribute::NoInline);
  }
}

/// Launch code is emitted unoptimized, by FastISel, which selects a block
/// bottom-up and hands the rest of the block to SelectionDAG at the first
/// instruction it cannot select: an insertvalue, or the return of an
/// aggregate (a memref descriptor). A variant's entry function is one
/// block of a few dozen instructions per launch, with memref descriptors
/// built by insertvalue and read back by extractvalue throughout, so it
/// went whole through SelectionDAG: 6 s for the 3,400 launches of an eager
/// 1,000-op program. InstSimplify folds each extractvalue of an insertvalue
/// (then DCE drops the chains no one reads), and the descriptor that is
/// returned gets a block of its own.
void prepareForFastISel(llvm::Module &llvmModule) {
  llvm::FunctionAnalysisManager fam;
  llvm::PassBuilder().registerFunctionAnalyses(fam);
  llvm::FunctionPassManager simplify;
  simplify.addPass(llvm::InstSimplifyPass());
  simplify.addPass(llvm::DCEPass());
  SmallVector<llvm::Instruction *> splits;
  for (llvm::Function &fn : llvmModule) {
    if (fn.isDeclaration())
      continue;
    simplify.run(fn, fam);
    for (llvm::BasicBlock &block : fn) {
      auto *ret = dyn_cast<llvm::ReturnInst>(block.getTerminator());
      if (!ret || !ret->getReturnValue() ||
          !ret->getReturnValue()->getType()->isAggregateType())
        continue;
      // The start of the chain of insertvalues that builds it.
      llvm::Instruction *start = ret;
      for (auto *insert = dyn_cast<llvm::InsertValueInst>(ret->getReturnValue());
           insert && insert->getParent() == &block;
           insert = dyn_cast<llvm::InsertValueInst>(insert->getAggregateOperand()))
        start = insert;
      if (start != &block.front())
        splits.push_back(start);
    }
  }
  for (llvm::Instruction *start : splits)
    llvm::SplitBlock(start->getParent(), start);
}

/// LLVM's O3 for the kernels of a variant.
llvm::Error optimizeModule(llvm::Module &llvmModule, llvm::TargetMachine &tm) {
  // LLVM's O3, without the SLP vectorizer: it packs the launch code's
  // memref descriptors into <4 x ptr> stores of vector GEPs, on which x86
  // instruction selection ran for minutes (an eager layer_norm program of
  // kf_fuzz.py, dynamic seed 6). Loops are still vectorized.
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = false;
  // CalledValuePropagation only annotates indirect calls, which kernels do
  // not make, and its solver grows faster than the function: 58 of the 96
  // s of O3 on the one row kernel of a 1,000-op program.
  llvm::PassInstrumentationCallbacks instrumentation;
  instrumentation.registerShouldRunOptionalPassCallback(
      [](StringRef pass, llvm::Any) { return pass != "CalledValuePropagationPass"; });
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&tm, tuning, std::nullopt, &instrumentation);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  // Huge functions (a fused kernel of thousands of ops) in pieces of a
  // bounded size first (SplitFunctions.h); identical pieces merge below.
  // The cut module is checked: a broken one is an internal error, not code.
  if (splitHugeFunctions(llvmModule) > 0 && llvm::verifyModule(llvmModule, &llvm::errs()))
    return llvm::createStringError("internal error: cutting a huge kernel into "
                                   "pieces broke its LLVM IR");
  // Then identical functions merged: an eager variant has one kernel
  // function per op, and most are the same code (a chain of 1,000 relus:
  // one); O3 then optimizes each once (1,000 relus: 0.7 s instead of 9 s).
  llvm::ModulePassManager merge;
  merge.addPass(llvm::MergeFunctionsPass());
  merge.run(llvmModule, mam);
  keepMergedFunctionsApart(llvmModule);
  builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3)
      .run(llvmModule, mam);
  return llvm::Error::success();
}

} // namespace

unsigned vectorBitsOf(const llvm::TargetMachine &tm) {
  // VL too: kf-host-math's vscalefps exp on 256-bit vectors needs it
  // (every AVX-512 CPU but Knights Landing has it).
  return tm.getMCSubtargetInfo()->checkFeatures("+avx512f,+avx512vl") ? 512 : 256;
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
hostMachine(StringRef cpu, llvm::CodeGenOptLevel level) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string why;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, why);
  if (!target)
    return llvm::createStringError(why);
  std::string cpuName = cpu == "native" ? llvm::sys::getHostCPUName().str() : cpu.str();
  // native means this CPU's features too, as clang's -march=native: the
  // name alone enables what the model has, which a hypervisor may hide
  // (this VM's EPYC is a znver3 without PKU), or nothing beyond the
  // baseline for a CPU newer than this LLVM (named "generic").
  std::string features;
  if (cpu == "native")
    for (const auto &[name, on] : llvm::sys::getHostCPUFeatures())
      features += (features.empty() ? "" : ",") + std::string(on ? "+" : "-") + name.str();
  // An unknown CPU name would reach the backend, which warns and then
  // aborts on the features it cannot resolve: refuse it here.
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!subtarget || !subtarget->isCPUStringValid(cpuName))
    return llvm::createStringError(
        "not a CPU LLVM knows for " + triple.str() +
        " (for example x86-64, x86-64-v3, skylake, znver3, or native)");
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, cpuName, features, llvm::TargetOptions(), llvm::Reloc::PIC_, std::nullopt,
      level));
  if (!tm)
    return llvm::createStringError("no target machine for " + triple.str() +
                                   " " + cpuName);
  return std::move(tm);
}

HostTarget describeHostTarget(const llvm::TargetMachine &tm) {
  const llvm::MCSubtargetInfo *subtarget = tm.getMCSubtargetInfo();
  HostTarget target{tm.getTargetCPU().str(), ""};
  for (const llvm::SubtargetFeatureKV &kv : subtarget->getAllProcessorFeatures())
    if (subtarget->getFeatureBits().test(kv.Value))
      target.features += (target.features.empty() ? "+" : ",+") + std::string(kv.Key);
  return target;
}

namespace {
/// Gives each entry `name` of `launch` a packed twin,
/// `kfuse_packed_<name>(void **pointers)`, which loads the pointers and
/// calls `_mlir_ciface_<name>` with them. A caller that learns the arity
/// only at run time (kfuse-run: a result buffer and a descriptor an
/// argument) cannot call a C function of any arity; a table of callers
/// stops somewhere (it stopped at 64 pointers, and a ViT-Tiny takes 154).
/// MLIR's ExecutionEngine makes the same wrapper (`_mlir_<name>`) for
/// itself, in code that is not its public API.
void addPackedEntries(llvm::Module &launch, ArrayRef<std::string> entries) {
  llvm::LLVMContext &ctx = launch.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false);
  for (const std::string &name : entries) {
    llvm::Function *ciface = launch.getFunction("_mlir_ciface_" + name);
    // Every kfuse entry takes and returns memrefs: pointers only.
    if (!ciface || !ciface->getReturnType()->isVoidTy() ||
        llvm::any_of(ciface->args(),
                     [](const llvm::Argument &a) { return !a.getType()->isPointerTy(); }))
      continue;
    auto *packed = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                          "kfuse_packed_" + name, launch);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", packed));
    SmallVector<llvm::Value *> args;
    for (unsigned i = 0; i < ciface->arg_size(); ++i)
      args.push_back(b.CreateLoad(ptr, b.CreateConstGEP1_64(ptr, packed->getArg(0), i)));
    b.CreateCall(ciface, args);
    b.CreateRetVoid();
  }
}
} // namespace

/// See HostObjects.h: why, and how the two objects link.
std::unique_ptr<llvm::Module> splitLaunchCode(llvm::Module &llvmModule,
                                              ArrayRef<std::string> entries,
                                              StringRef variant) {
  llvm::StringSet<> names;
  for (const std::string &name : entries) {
    names.insert(name);
    names.insert("_mlir_ciface_" + name);
  }
  auto isLaunch = [&](const llvm::GlobalValue *gv) {
    return isa<llvm::Function>(gv) && names.contains(gv->getName());
  };
  llvm::SmallPtrSet<const llvm::Value *, 32> seen;
  SmallVector<const llvm::Value *> work;
  for (llvm::Function &fn : llvmModule)
    if (isLaunch(&fn))
      for (llvm::Instruction &inst : llvm::instructions(fn))
        for (llvm::Value *operand : inst.operands())
          work.push_back(operand);
  while (!work.empty()) {
    const llvm::Value *v = work.pop_back_val();
    if (!isa<llvm::Constant>(v) || !seen.insert(v).second)
      continue;
    if (auto *gv = dyn_cast<llvm::GlobalValue>(v)) {
      auto *global = const_cast<llvm::GlobalValue *>(gv);
      if (global->hasLocalLinkage() && !isLaunch(global)) {
        global->setName("kfuse." + variant + "." + global->getName());
        global->setLinkage(llvm::GlobalValue::ExternalLinkage);
        global->setVisibility(llvm::GlobalValue::HiddenVisibility);
      }
      continue;
    }
    for (const llvm::Value *operand : cast<llvm::Constant>(v)->operands())
      work.push_back(operand);
  }
  llvm::ValueToValueMapTy map;
  std::unique_ptr<llvm::Module> launch = llvm::CloneModule(llvmModule, map, isLaunch);
  // The constructors (kernel module load) and the like stay with the kernels.
  for (llvm::GlobalVariable &gv : llvm::make_early_inc_range(launch->globals()))
    if (gv.getName().starts_with("llvm."))
      gv.eraseFromParent();
  for (llvm::Function &fn : llvmModule)
    if (isLaunch(&fn))
      fn.deleteBody();
  addPackedEntries(*launch, entries);
  return launch;
}

/// Runs on a worker thread (see ObjectJob).
llvm::Error emitObject(llvm::Module &llvmModule, llvm::TargetMachine &tm,
                       StringRef path, bool optimize) {
  llvmModule.setTargetTriple(tm.getTargetTriple());
  llvmModule.setDataLayout(tm.createDataLayout());
  if (optimize) {
    if (llvm::Error e = optimizeModule(llvmModule, tm))
      return e;
  } else {
    prepareForFastISel(llvmModule);
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError("cannot write " + path + ": " + ec.message());
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the host target cannot emit object files");
  pm.run(llvmModule);
  // A failed write (EFBIG past ulimit -f, ENOSPC) is an error here: left
  // in the stream, its destructor would end the process with a fatal error.
  os.close();
  if (os.has_error()) {
    std::string why = os.error().message();
    os.clear_error();
    return llvm::createStringError("cannot write " + path + ": " + why);
  }
  return llvm::Error::success();
}

void ObjectJob::run() {
  llvm::Error e = emitObject(*launch, *launchTm, launchPath, /*optimize=*/false);
  if (!e)
    e = emitObject(*module, *tm, path);
  if (e)
    error = llvm::toString(std::move(e));
  launch.reset(); // their memory, as soon as they are done
  module.reset();
  context.reset();
}

} // namespace kfuse
