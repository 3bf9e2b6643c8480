//===- InlineCalls.h - calls inlined before the GPU pipeline ----*- C++ -*-===//
#ifndef KFUSE_TOOLS_KFUSE_COMPILE_INLINECALLS_H
#define KFUSE_TOOLS_KFUSE_COMPILE_INLINECALLS_H

#include "mlir/IR/BuiltinOps.h"

namespace kfuse {

/// Inlines every func.call of a function defined in `module`, callees
/// first, and erases the private functions left without a use. The GPU
/// pipeline cannot keep a call: bufferization returns the callee's buffer
/// with ownership flags, whose deallocation becomes host code on device
/// memory (kf-device-buffers refuses it), and upstream's inliner does not
/// inline kf ops. Inlined, a call's ops are kernels of the caller (and may
/// fuse with its own). Refuses, with the call named, recursion and a
/// function that inlining would make larger than kMaxInlinedOps.
mlir::LogicalResult inlineCalls(mlir::ModuleOp module);

/// Beyond this, calls inlined into calls (each callee called twice by the
/// one before) would make a program too large to compile.
constexpr size_t kMaxInlinedOps = 1000000;

} // namespace kfuse

#endif // KFUSE_TOOLS_KFUSE_COMPILE_INLINECALLS_H
