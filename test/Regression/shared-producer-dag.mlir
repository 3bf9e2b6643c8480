// Issue 27 (item 1): `v_i = v_{i-1} + v_{i-2}` over 12 elementwise ops
// made kf-form-kernels fail with nothing said: upstream's pairwise fusion
// merges a producer read by two ops only once they are one op, one level
// of the DAG per round of the greedy driver, and 12 levels ran past its
// 10 rounds. Such a run is now merged at once (passes/fusion/
// ElementwiseRuns.cpp), each op's body cloned once: the kernel is one loop
// nest of 10 adds for 12 ops, 998 for 1,000 (linear), and it computes the
// recurrence numpy computes.
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels | FileCheck %s
// RUN: kfuse-compile %s --emit=lib -o %t.so
// RUN: %run-check %t.so --input "arg0=f32[64]" \
// RUN:   --expect "(lambda v: [v.append(v[-1] + v[-2]) for _ in range(10)] and v[-1])([np.maximum(arg0, 0), -np.maximum(arg0, 0)])" \
// RUN:   -- --entry fib12 --device=cpu --repeat=0 | FileCheck %s --check-prefix=NUMBERS
// NUMBERS: run_check: result0 float32[64] matches numpy

// A 1,000-op DAG of the same shape: one kernel, one loop nest, each add once.
// RUN: python3 -c "n = 1000; print('func.func @fib(%%a: tensor<64xf32>) -> tensor<64xf32> {'); print('  %%v0 = kf.relu %%a : tensor<64xf32>'); print('  %%v1 = kf.neg %%v0 : tensor<64xf32>'); [print(f'  %%v{i} = kf.add %%v{i-1}, %%v{i-2} : tensor<64xf32>, tensor<64xf32>') for i in range(2, n)]; print(f'  return %%v{n-1} : tensor<64xf32>'); print('}')" > %t.1000.mlir
// RUN: kfuse-opt %t.1000.mlir --kf-to-linalg --kf-form-kernels | FileCheck %s --check-prefix=LARGE
// RUN: kfuse-opt %t.1000.mlir --kf-to-linalg --kf-form-kernels | grep -c arith.addf | FileCheck %s --check-prefix=ADDS
// LARGE-COUNT-1: kf.kernel
// LARGE-NOT: kf.kernel
// ADDS: {{^}}998{{$}}

// CHECK-LABEL: func.func @fib12
// CHECK: kf.kernel "pointwise_relu_neg_add_add_add_add_add_add_etc_0"
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK-COUNT-10: arith.addf
// CHECK-NOT: arith.addf
// CHECK: kf.yield
func.func @fib12(%a: tensor<64xf32>) -> tensor<64xf32> {
  %v0 = kf.relu %a : tensor<64xf32>
  %v1 = kf.neg %v0 : tensor<64xf32>
  %v2 = kf.add %v1, %v0 : tensor<64xf32>, tensor<64xf32>
  %v3 = kf.add %v2, %v1 : tensor<64xf32>, tensor<64xf32>
  %v4 = kf.add %v3, %v2 : tensor<64xf32>, tensor<64xf32>
  %v5 = kf.add %v4, %v3 : tensor<64xf32>, tensor<64xf32>
  %v6 = kf.add %v5, %v4 : tensor<64xf32>, tensor<64xf32>
  %v7 = kf.add %v6, %v5 : tensor<64xf32>, tensor<64xf32>
  %v8 = kf.add %v7, %v6 : tensor<64xf32>, tensor<64xf32>
  %v9 = kf.add %v8, %v7 : tensor<64xf32>, tensor<64xf32>
  %v10 = kf.add %v9, %v8 : tensor<64xf32>, tensor<64xf32>
  %v11 = kf.add %v10, %v9 : tensor<64xf32>, tensor<64xf32>
  return %v11 : tensor<64xf32>
}


// Several results of the run read after it, and an input read through a
// broadcast: each written once, the broadcast input read once.
// CHECK-LABEL: func.func @run_with_outputs
// CHECK: kf.kernel
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<4x64xf32>, tensor<64xf32>)
// CHECK-NOT: linalg.generic
// CHECK: kf.yield %{{.*}}, %{{.*}} : tensor<4x64xf32>, tensor<4x64xf32>
func.func @run_with_outputs(%a: tensor<4x64xf32>, %b: tensor<64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>) {
  %v0 = kf.add %a, %b : tensor<4x64xf32>, tensor<64xf32>
  %v1 = kf.mul %v0, %v0 : tensor<4x64xf32>, tensor<4x64xf32>
  %v2 = kf.add %v1, %v0 : tensor<4x64xf32>, tensor<4x64xf32>
  %v3 = kf.add %v2, %v1 : tensor<4x64xf32>, tensor<4x64xf32>
  %v4 = kf.add %v3, %v2 : tensor<4x64xf32>, tensor<4x64xf32>
  %v5 = kf.add %v4, %v3 : tensor<4x64xf32>, tensor<4x64xf32>
  %v6 = kf.add %v5, %v4 : tensor<4x64xf32>, tensor<4x64xf32>
  %v7 = kf.add %v6, %v5 : tensor<4x64xf32>, tensor<4x64xf32>
  %v8 = kf.add %v7, %v6 : tensor<4x64xf32>, tensor<4x64xf32>
  %v9 = kf.add %v8, %v7 : tensor<4x64xf32>, tensor<4x64xf32>
  %v10 = kf.add %v9, %v8 : tensor<4x64xf32>, tensor<4x64xf32>
  %v11 = kf.add %v10, %v9 : tensor<4x64xf32>, tensor<4x64xf32>
  %v12 = kf.add %v11, %v10 : tensor<4x64xf32>, tensor<4x64xf32>
  %v13 = kf.add %v12, %v11 : tensor<4x64xf32>, tensor<4x64xf32>
  %v14 = kf.add %v13, %v12 : tensor<4x64xf32>, tensor<4x64xf32>
  %v15 = kf.add %v14, %v13 : tensor<4x64xf32>, tensor<4x64xf32>
  %v16 = kf.tanh %v15 : tensor<4x64xf32>
  return %v16, %v7 : tensor<4x64xf32>, tensor<4x64xf32>
}
