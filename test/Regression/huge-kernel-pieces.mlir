// A fused kernel of thousands of ops is one LLVM function, whose O3 and
// instruction selection grow faster than its length (issue 27, item 13: a
// 1,000-op chain of softmax, layer_norm, tanh, add and mul over 32x64 is
// one row kernel; its host code took 150 s of LLVM). kfuse-compile now
// cuts a host function over 8,000 instructions into pieces of about 2,000
// (tools/kfuse-compile/SplitFunctions.h). A 60-op chain is cut (its row
// kernel is some 14,000 instructions): the library has the pieces, and the
// fused result still matches the unfused run. Timings are in
// docs/BENCHMARKS.md, not here.
// RUN: %python %kfuse_src/bench/mixed_chain.py 60 > %t.mlir
// RUN: timeout 300 kfuse-compile %t.mlir --emit=lib -o %t.so
// RUN: llvm-nm %t.so | FileCheck %s --check-prefix=PIECES
// RUN: kfuse-run %t.so --check --device=cpu --repeat=0 | FileCheck %s
// PIECES: kfuse_piece
// CHECK: kernels {{.*}} 1
// CHECK: check against the CPU, unfused: {{.*}}: ok
