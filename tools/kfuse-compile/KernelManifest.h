//===- KernelManifest.h - kernels.json --------------------------*- C++ -*-===//
#ifndef KFUSE_TOOLS_KFUSE_COMPILE_KERNELMANIFEST_H
#define KFUSE_TOOLS_KFUSE_COMPILE_KERNELMANIFEST_H

#include "mlir/IR/BuiltinOps.h"
#include "passes/target/GpuTarget.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace kfuse {

/// Writes kernels.json (docs/reference/json-outputs.md): for each kernel
/// its name, kind, GPU mapping, ops, launch (grid and block as the host
/// computes them, numbers or formulas in d0, d1, ...; shared memory),
/// launch arguments, bytes read and written and FLOPs. `kernels` is the
/// module after kernel formation, `gpu` the module after outlining;
/// `target` the chip the mappings emitted for (its facts recorded as
/// `gpu_target`); `tf32`: whether f32 matmuls run on tensor cores as TF32
/// (it changes results); `matmulTiles`: --matmul-tiles (a tensor-core
/// matmul's tiles are recorded, `tiles`).
void writeKernelManifest(llvm::raw_ostream &os, mlir::ModuleOp kernels,
                         mlir::ModuleOp gpu, unsigned blockSize,
                         const gpu::GpuTarget &target, bool tf32,
                         llvm::StringRef matmulTiles);

/// One compiled version of a program: its kernels (the module after kernel
/// formation) and, when there is no GPU code, why. The host forms its own
/// kernels (kf-to-linalg takes layer_norm's moments in f64 there: more
/// ops, other kernel names), which the host runtime runs and reports.
struct ProgramVariant {
  std::string name; // fused, eager
  mlir::OwningOpRef<mlir::ModuleOp> kernels, hostKernels;
  std::string gpuError;
  bool hostCode = true; // the library holds the host version's code
};

/// The manifest embedded in a library from --emit=lib (kfuse-run reads it):
/// each function's arguments and results (dtype, shape with -1 for a
/// dynamic dim) and, for each variant, its kernels with their bytes and
/// FLOPs (a number, or a polynomial in d0, d1, ... with what each symbol
/// means; FLOPs null when unknown) and the variant its GPU mapping runs
/// (null but for a matmul; chosen from `target` as the Gpu stage does),
/// and `hostCpu`: the CPU the host code
/// was compiled for (name, as requested, LLVM's features).
void writeProgramManifest(llvm::raw_ostream &os, mlir::ModuleOp program,
                          llvm::ArrayRef<ProgramVariant> variants,
                          unsigned blockSize, const gpu::GpuTarget &target, bool tf32,
                          llvm::json::Object hostCpu);

} // namespace kfuse

#endif // KFUSE_TOOLS_KFUSE_COMPILE_KERNELMANIFEST_H
