// REQUIRES: torch
// The dry run of bench/gpu_bench.py with PyTorch: every row also runs torch
// eager and torch.compile (backend 'eager') through the code that runs them
// on the GPU, on CPU tensors (the fake driver's device memory is host
// memory), and times them in the same interleaved loop. Without this, the
// torch code ran first on the H200, where its eager call crashed the first
// row (a lambda called the timing loop's rebound name: TypeError).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %kfuse_src/bench/gpu_bench.py --build --sizes dry \
// RUN:   --kfuse-compile %kfuse_obj/bin/kfuse-compile --programs %t/programs > /dev/null
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda %torch-python %kfuse_src/bench/gpu_bench.py --dry-run \
// RUN:   --programs %t/programs --runtime %kfuse_obj/lib/libkfuse_runtime.so --out %t/out \
// RUN:   | FileCheck %s
// RUN: %python %s.py %t/out/gpu-check.json | FileCheck %s --check-prefix=JSON
//
// Every row has its four times: kfuse graph on and off, torch eager and
// torch.compile; 9 graph replays (3 rounds of 3 calls), as without torch.
// CHECK: fake driver, no timing claims
// CHECK: torch: {{.*}} on the CPU (dry run: CPU tensors stand in for CUDA ones; torch.compile with backend 'eager')
// CHECK: | row | kfuse graph on us | kfuse graph off us | torch eager us | torch.compile us |
// CHECK: | softmax_f32_4x64 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} GB/s | {{.*}}% | {{[0-9.e+-]+}}x | {{[0-9.e+-]+}}x | 9 | - |
// CHECK: | softmax_f32_8x256 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} | 9 | - |
// CHECK: | layer_norm_f32_4x64 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} | 9 | - |
// CHECK: | layer_norm_f32_16x32 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} | 9 | - |
// CHECK: | matmul_f16_32x32 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} TFLOP/s | {{.*}} | 9 | - |
// CHECK: | matmul_bf16_32x32 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} TFLOP/s | {{.*}} | 9 | - |
// CHECK: | matmul_f32_32x32 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} TFLOP/s | {{.*}} | 9 | - |
// CHECK: | transpose_f32_64x64 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} GB/s | {{.*}} | 9 | - |
// CHECK: | add_relu_1e03 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} | 9 | - |
// CHECK: | add_relu_1e04 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} | 9 | - |
// CHECK: | add_relu_1e05 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} | 9 | - |
//
// JSON: rows 11, errors 0
// JSON: every row: kfuse graph on and off, torch eager and torch.compile timed; 1 capture, 9 replays
