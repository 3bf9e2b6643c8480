//===- KernelManifest.h - kernels.json --------------------------*- C++ -*-===//
#ifndef KFUSE_TOOLS_KFUSE_COMPILE_KERNELMANIFEST_H
#define KFUSE_TOOLS_KFUSE_COMPILE_KERNELMANIFEST_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace kfuse {

/// Writes kernels.json: for each kernel its name, kind, ops, block size,
/// grid rule, launch arguments and bytes read and written. `kernels` is the
/// module after kernel formation, `gpu` the module after outlining.
void writeKernelManifest(llvm::raw_ostream &os, mlir::ModuleOp kernels,
                         mlir::ModuleOp gpu, unsigned blockSize,
                         llvm::StringRef chip);

} // namespace kfuse

#endif // KFUSE_TOOLS_KFUSE_COMPILE_KERNELMANIFEST_H
