//===- SplitFunctions.h - huge host functions cut into pieces ---*- C++ -*-===//
//
// A fused kernel can be one function of thousands of ops (a 1,000-op chain
// over rows of 64: one row kernel of 3,400 linalg ops, 1,600 loops in one
// loop body, 4,069 scalar arguments). LLVM's cost on one function grows
// faster than its length: O3's loop passes re-walk the enclosing loop for
// every inner loop (LoopFullUnroll, LoopRotate), x86 instruction selection
// is superlinear in the length of a block, which full unrolling makes
// long, and in the arguments of a call (the host kernel ABI's call of the
// kernel's body: 41 s for that call alone). 1,000 ops: 150 s of O3 and
// code generation for that one function. So, before O3:
//
// - an internal function with more than kMaxCallArguments arguments is
//   inlined into its one caller (the ABI wrapper's loads then feed the
//   body directly);
// - a function over kMaxFunctionInstructions is cut into pieces of about
//   kPieceInstructions, called in order from where they were: each piece
//   is optimized on its own (noinline), so the total cost is a sum of
//   bounded parts (1,000 ops: 18 s instead of 150). The pieces are the
//   spans between the blocks every run of a loop body (or of the function)
//   passes, so each is single-entry single-exit; the values it uses from
//   before it are its arguments, those it makes for after it are returned
//   through pointers.
//
// The cost at run time is a call per piece where its span ran (for a row
// kernel, per row): tens of instructions against thousands. Functions under
// the threshold, every kernel of a usual program, are left as they are.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_TOOLS_KFUSE_COMPILE_SPLITFUNCTIONS_H
#define KFUSE_TOOLS_KFUSE_COMPILE_SPLITFUNCTIONS_H

#include "llvm/IR/Module.h"

namespace kfuse {

/// Functions longer than this (instructions, before optimization) are cut.
constexpr unsigned kMaxFunctionInstructions = 8000;
/// The length a piece is cut to, as far as the code's structure allows.
constexpr unsigned kPieceInstructions = 2000;

/// An internal function with more arguments than this and one caller is
/// inlined there first.
constexpr unsigned kMaxCallArguments = 256;

/// Inlines the wide callees, then cuts every function of `m` longer than
/// `maxInstructions` into pieces of about `pieceInstructions` (see above);
/// returns how many pieces it made. The pieces are internal, noinline
/// functions named after the function.
unsigned splitHugeFunctions(llvm::Module &m,
                            unsigned maxInstructions = kMaxFunctionInstructions,
                            unsigned pieceInstructions = kPieceInstructions);

} // namespace kfuse

#endif // KFUSE_TOOLS_KFUSE_COMPILE_SPLITFUNCTIONS_H
