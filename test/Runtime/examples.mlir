// kfuse-run runs every example on the CPU (no GPU here): the kernel summary
// and launch counts, and the results against numpy computed by the test.
// This file only drives the examples; its own function is never run.
//
// add_relu: 2 kernels eager, 1 fused; 5 transfers -> 3; 3 arrays of 1e6 f32
// = 12 MB fused (hand count: read a, b; write c).
// RUN: %run-check %kfuse_src/examples/add_relu.mlir --input "arg0=f32[1000000]" \
// RUN:   --input "arg1=f32[1000000]" --expect "np.maximum(arg0 + arg1, 0)" \
// RUN:   -- --device=cpu --repeat=3 --check | FileCheck %s --check-prefix=ADDRELU
// ADDRELU: device: cpu
// ADDRELU: kernels {{ *}}2 {{ *}}1
// ADDRELU-NEXT: transfers {{ *}}5 {{ *}}3
// ADDRELU-NEXT: bytes {{ *}}20.00 MB {{ *}}12.00 MB
// ADDRELU: first call: {{.*}}, 1 launch
// ADDRELU: steady state: 3 calls, {{.*}} 1 launch a call
// ADDRELU: pointwise_add_relu_0 {{ *}}3
// ADDRELU: check against the CPU, unfused: {{.*}}: ok
// ADDRELU: run_check: result0 float32[1000000] matches numpy
//
// Unfused: two launches a call, add then relu.
// RUN: %run-check %kfuse_src/examples/add_relu.mlir --input "arg0=f32[1000000]" \
// RUN:   --input "arg1=f32[1000000]" --expect "np.maximum(arg0 + arg1, 0)" \
// RUN:   -- --device=cpu --fusion=off --repeat=2 | FileCheck %s --check-prefix=EAGER
// EAGER: steady state: 2 calls, {{.*}} 2 launches a call
// EAGER-DAG: pointwise_add_0 {{ *}}2
// EAGER-DAG: pointwise_relu_1 {{ *}}2
// EAGER: run_check: result0 float32[1000000] matches numpy
//
// RUN: %run-check %kfuse_src/examples/add.mlir --input "arg0=f32[1000000]" \
// RUN:   --input "arg1=f32[1000000]" --expect "arg0 + arg1" \
// RUN:   -- --device=cpu --repeat=1 | FileCheck %s --check-prefix=ADD
// ADD: kernels {{ *}}1 {{ *}}1
// ADD: run_check: result0 float32[1000000] matches numpy
//
// softmax over rows: 5 kernels eager (max, sub, exp, sum, div), 1 fused.
// RUN: %run-check %kfuse_src/examples/softmax.mlir --input "arg0=f32[1024x1024]" \
// RUN:   --expect "softmax(arg0)" -- --device=cpu --repeat=1 --check \
// RUN:   | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX: device: cpu
// SOFTMAX: kernels {{ *}}5 {{ *}}1
// SOFTMAX: 1 launch a call
// SOFTMAX: check against the CPU, unfused: {{.*}}: ok
// SOFTMAX: run_check: result0 float32[1024, 1024] matches numpy
//
// The MLP block with a batch of 8 (the dynamic dim comes from the input):
// 5 kernels eager, 2 fused (relu -> matmul is a boundary). Two f32
// matmuls summing 256 and 1024 products in different orders (the host
// kernel: one FMA a step; numpy's BLAS: blocked) differ by about 1e-6 of
// the largest result (values up to ~300; measured against float64: kfuse
// 1.6e-4, numpy 8.5e-5 at most), so the tolerance is absolute.
// RUN: %run-check %kfuse_src/examples/mlp.mlir --rtol 1e-5 --atol 2e-3 --input "arg0=f32[8x256]" \
// RUN:   --input "arg1=f32[256x1024]" --input "arg2=f32[1024]" \
// RUN:   --input "arg3=f32[1024x256]" --input "arg4=f32[256]" \
// RUN:   --expect "np.maximum(arg0 @ arg1 + arg2, 0) @ arg3 + arg4" \
// RUN:   -- --device=cpu --repeat=1 | FileCheck %s --check-prefix=MLP
// MLP: kernels {{ *}}5 {{ *}}2
// MLP: 2 launches a call
// MLP: run_check: result0 float32[8, 256] matches numpy
func.func private @none()
