// REQUIRES: torch
// Every module of ops.mlir (Inputs/op_modules.py) run with kfuse-run on the
// CPU and compared with PyTorch's results on the same inputs, by dtype:
// f32 within 1e-5, f16 2e-3, bf16 2e-2, integers and bools exactly.
// RUN: rm -rf %t && %torch-python %S/Inputs/run_e2e.py --kfuse-run %kfuse_obj/bin/kfuse-run --work %t --catalogue ops 2>&1 | FileCheck %s

// CHECK: arithmetic: ok, 18 results
// CHECK: unary: ok, 19 results
// CHECK: activations: ok, 9 results
// CHECK: compare_select: ok, 12 results
// CHECK: casts: ok, 8 results
// CHECK: reductions: ok, 14 results
// CHECK: arg_reductions: ok, 8 results
// CHECK: any_all: ok, 8 results
// CHECK: attention: ok, 7 results
// CHECK: views: ok, 10 results
// CHECK: matmuls: ok, 8 results
// CHECK: constants: ok, 3 results
// CHECK: norms: ok, 8 results
// CHECK: losses: ok, 5 results
// CHECK: misc: ok, 10 results
// CHECK: powers: ok, 7 results
// CHECK: gathers: ok, 7 results
// CHECK: scans: ok, 7 results
// CHECK: convs: ok, 16 results
// CHECK: dynamic: ok, 4 results
// CHECK: dynamic at batch 3: ok, 4 results
// CHECK: bf16_f16: ok, 4 results
// CHECK-NOT: FAIL
