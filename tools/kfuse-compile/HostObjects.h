//===- HostObjects.h - the host objects of a library ------------*- C++ -*-===//
//
// LLVM's part of kfuse-compile --emit=lib: each variant's LLVM module is
// split into its launch code and its kernels, and each is optimized and
// written as an object file, on a worker thread (ObjectJob).
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_TOOLS_KFUSE_COMPILE_HOSTOBJECTS_H
#define KFUSE_TOOLS_KFUSE_COMPILE_HOSTOBJECTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <optional>
#include <string>

namespace kfuse {

/// A target machine for the host CPU `cpu` (an LLVM CPU name, or native:
/// this machine's CPU and the features it reports),
/// or why there is none (an unknown CPU name is refused here: the backend
/// would abort on it).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
hostMachine(llvm::StringRef cpu,
            llvm::CodeGenOptLevel level = llvm::CodeGenOptLevel::Default);

/// The width of `tm`'s CPU's vector registers, as kf-map-kernels-to-host's
/// `vector-bits` takes it: 512 where the CPU has AVX-512 F and VL (its features or
/// the model's), else 256.
unsigned vectorBitsOf(const llvm::TargetMachine &tm);

/// The CPU a target machine compiles for and every feature LLVM enables for
/// it, implied ones included ("+sse2,+avx2,..."): what a library records,
/// and the runtime checks where it is loaded (runtime/HostCpu.h).
struct HostTarget {
  std::string cpu;
  std::string features;
};
HostTarget describeHostTarget(const llvm::TargetMachine &tm);

/// The variant's own functions (and their C interfaces) are launch code:
/// allocations, one runtime call per launch, frees; the kernels are other
/// functions. The launch code of a program is one function of straight-line
/// code, whose instruction selection and register allocation grow faster
/// than linearly with its length (an eager 1,000-op chain: 2.8 s for that
/// function alone; 2,000 ops: four times that), and optimizing it gains
/// nothing measurable. It moves to a module of its own, compiled without
/// optimization (0.9 s at 1,000 ops); the kernels stay in `llvmModule`.
/// What the launch code names there (the kernel module handle, the kernel
/// names, local symbols) becomes a hidden global symbol, named apart per
/// variant, so that the two objects link. Each entry's packed twin,
/// `kfuse_packed_<entry>(void **pointers)`, is launch code too: kfuse-run
/// calls an entry of any number of arguments through it.
std::unique_ptr<llvm::Module> splitLaunchCode(llvm::Module &llvmModule,
                                              llvm::ArrayRef<std::string> entries,
                                              llvm::StringRef variant);

/// Optimizes `llvmModule` for the host (unless `optimize` is false) and
/// writes it as an object file at `path`.
llvm::Error emitObject(llvm::Module &llvmModule, llvm::TargetMachine &tm,
                       llvm::StringRef path, bool optimize = true);

/// One object file to optimize and emit: LLVM's part of a variant, the
/// most of its time (an eager variant: one kernel function per op). Each
/// job has its own LLVM context and target machine, and runs on a thread
/// of its own while the next variant goes through the MLIR pipelines.
struct ObjectJob {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::unique_ptr<llvm::TargetMachine> tm;
  std::string path;
  // The launch code (splitLaunchCode), in the same LLVM context, compiled
  // without optimization.
  std::unique_ptr<llvm::Module> launch;
  std::unique_ptr<llvm::TargetMachine> launchTm;
  std::string launchPath;
  std::optional<std::string> error;

  void run();
};

} // namespace kfuse

#endif // KFUSE_TOOLS_KFUSE_COMPILE_HOSTOBJECTS_H
