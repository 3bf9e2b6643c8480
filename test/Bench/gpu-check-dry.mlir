// bench/gpu_bench.py (the GPU half of bench/gpu-check.sh) still runs where
// there is no GPU: --build writes every benchmark family from the templates
// of bench/gpu/ at tiny sizes and compiles each with kfuse-compile; the dry
// run calls every row's fused GPU entry point through the runtime's C API
// on the fake CUDA driver of test/fake-cuda, with CUDA-graph replay on and
// off, and writes the table. The fake driver runs no kernel: nothing is
// checked, and the script says its numbers are no timing claims. Here
// kfuse alone (--no-torch, as where PyTorch is missing) and no model rows
// (they need PyTorch to import); gpu-check-dry-torch.mlir runs the rows'
// torch code too, the model rows and a matmul tile sweep. The rows run in
// worker processes; the last RUN lines make each worker's first launch
// fail (the runtime then exits, as on a CUDA error): every row is recorded
// as crashed, a fresh worker takes the next, and the run fails.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %kfuse_src/bench/gpu_bench.py --build --sizes dry --no-models \
// RUN:   --kfuse-compile %kfuse_obj/bin/kfuse-compile --programs %t/programs | FileCheck %s --check-prefix=BUILD
// BUILD: built softmax.so: softmax_f32_4x64, softmax_f32_8x256
// BUILD: built layer_norm.so: layer_norm_f32_4x64, layer_norm_f32_16x32
// BUILD: built matmul.so: matmul_f16_32x32, matmul_bf16_32x32, matmul_f32_32x32
// BUILD: built transpose.so: transpose_f32_64x64
// BUILD: built softmax_t.so: softmax_t_f32_16x32
// BUILD: built softmax_t_unfused.so: softmax_t_unfused_f32_16x32
// BUILD: built add_relu.so: add_relu_f32
// BUILD: model rows: not built (--no-models)
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda %python %kfuse_src/bench/gpu_bench.py --dry-run --no-torch \
// RUN:   --programs %t/programs --runtime %kfuse_obj/lib/libkfuse_runtime.so --out %t/out \
// RUN:   | FileCheck %s
// RUN: %python %s.py %t/out/gpu-check.json | FileCheck %s --check-prefix=JSON
// RUN: FileCheck %s --check-prefix=MD < %t/out/gpu-check.md
//
// Every row ran on the (fake) GPU with graphs on and off; 9 replays a row:
// 3 rounds of 3 calls with graphs on, the capture being in the warm-up.
// CHECK: fake driver, no timing claims
// CHECK: device: cuda: kfuse fake GPU
// CHECK: | row | kfuse graph on us | kfuse graph off us | torch eager us | torch.compile us |
// CHECK: | softmax_f32_4x64 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | - | - | {{.*}} GB/s | {{.*}} | 9 | - |
// CHECK: | softmax_f32_8x256 | {{.*}} | 9 | - |
// CHECK: | layer_norm_f32_4x64 | {{.*}} | 9 | - |
// CHECK: | layer_norm_f32_16x32 | {{.*}} | 9 | - |
// CHECK: | matmul_f16_32x32 | {{.*}} TFLOP/s | {{.*}} | 9 | - |
// CHECK: | matmul_bf16_32x32 | {{.*}} TFLOP/s | {{.*}} | 9 | - |
// CHECK: | matmul_f32_32x32 | {{.*}} TFLOP/s | {{.*}} | 9 | - |
// CHECK: | transpose_f32_64x64 | {{.*}} GB/s | {{.*}} | 9 | - |
// CHECK: | softmax_t_f32_16x32 | {{.*}} GB/s | {{.*}} | 9 | - |
// CHECK: | softmax_t_unfused_f32_16x32 | {{.*}} GB/s | {{.*}} | 9 | - |
// CHECK: | add_relu_1e03 | {{.*}} | 9 | - |
// CHECK: | add_relu_1e04 | {{.*}} | 9 | - |
// CHECK: | add_relu_1e05 | {{.*}} | 9 | - |
// CHECK: host time a call of one launch (add_relu of 1000 floats, fake driver: the runtime alone, host-side only): graphs off {{.*}} us, graphs on {{.*}} us
// CHECK: model row gpt2_block: not built (--no-models)
// CHECK: model row llama_mlp: not built (--no-models)
// MD: fake driver, no timing claims
// MD: | add_relu_1e05 |
//
// JSON: rows 13, errors 0
// JSON: every row: graph on and off timed, 1 capture, 9 replays
// JSON: torch: not used (--no-torch)
//
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_FAIL=cuLaunchKernel:1:700 \
// RUN:   not %python %kfuse_src/bench/gpu_bench.py --dry-run --no-torch --only softmax,add_relu_1e03 \
// RUN:   --programs %t/programs --runtime %kfuse_obj/lib/libkfuse_runtime.so --out %t/crash \
// RUN:   | FileCheck %s --check-prefix=CRASH
// CRASH: | softmax_f32_4x64 | error: the worker died (exit 1): kfuse runtime: error: cuLaunchKernel failed for kernel '{{.*}}': CUDA_ERROR_ILLEGAL_ADDRESS
// CRASH: | softmax_f32_8x256 | error: the worker died (exit 1): kfuse runtime: error: cuLaunchKernel failed
// CRASH: | add_relu_1e03 | error: the worker died (exit 1): kfuse runtime: error: cuLaunchKernel failed
// CRASH: launch overhead: error: the worker died (exit 1)
