// REQUIRES: torch
// The dry run of bench/gpu_bench.py with PyTorch: every row also runs torch
// eager and torch.compile (backend 'eager'; not for the lone matmuls, which
// torch.compile hands to cuBLAS) through the code that runs them on the
// GPU, on CPU tensors (the fake driver's device memory is host memory), and
// times them in the same interleaved loop. Without this, the torch code ran
// first on the H200, where its eager call crashed the first row (a lambda
// called the timing loop's rebound name: TypeError).
// The model rows too: bench/models.py's GPT-2 block and Llama MLP at tiny
// sizes, imported by --build (kfuse-import, with the Python that has
// PyTorch), called with the module's parameters and then its inputs, the
// module itself as torch's side. And a matmul tile sweep of one SPEC
// where kfuse-compile has --matmul-tiles (else the build says it skipped
// the sweep): the sweep's rows are timed kfuse graph-on and torch eager
// only, after every other row, and the table ends with their summary.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %kfuse_src/bench/gpu_bench.py --build --sizes dry --torch-python %torch-python \
// RUN:   --matmul-tiles 64x64x32/2x2/2 --kfuse-compile %kfuse_obj/bin/kfuse-compile \
// RUN:   --programs %t/programs | FileCheck %s --check-prefix=BUILD
// BUILD: built model_gpt2_block.so: gpt2_block (GPT2_B=1 GPT2_T=8 GPT2_D=24 LLAMA_ROWS=4 LLAMA_D=8 LLAMA_HIDDEN=16)
// BUILD: built model_llama_mlp.so: llama_mlp (GPT2_B=1 GPT2_T=8 GPT2_D=24 LLAMA_ROWS=4 LLAMA_D=8 LLAMA_HIDDEN=16)
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda %torch-python %kfuse_src/bench/gpu_bench.py --dry-run \
// RUN:   --programs %t/programs --runtime %kfuse_obj/lib/libkfuse_runtime.so --out %t/out \
// RUN:   | FileCheck %s
// RUN: %python %s.py %t/out/gpu-check.json %kfuse_obj/bin/kfuse-compile | FileCheck %s --check-prefix=JSON
//
// Every row has its times: kfuse graph on and off, torch eager and
// torch.compile (none for the matmuls); 9 graph replays (3 rounds of 3
// calls), as without torch.
// CHECK: fake driver, no timing claims
// CHECK: torch: {{.*}} on the CPU (dry run: CPU tensors stand in for CUDA ones; torch.compile with backend 'eager')
// CHECK: | row | kfuse graph on us | kfuse graph off us | torch eager us | torch.compile us |
// CHECK: | softmax_f32_4x64 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} GB/s | {{.*}}% | {{[0-9.e+-]+}}x | {{[0-9.e+-]+}}x | 9 | - |
// CHECK: | softmax_f32_8x256 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} | 9 | - |
// CHECK: | layer_norm_f32_4x64 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} | 9 | - |
// CHECK: | layer_norm_f32_16x32 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} | 9 | - |
// CHECK: | matmul_f16_32x32 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | - | {{.*}} TFLOP/s | {{.*}} | {{[0-9.e+-]+}}x | - | 9 | - |
// CHECK: | matmul_bf16_32x32 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | - | {{.*}} TFLOP/s | {{.*}} | 9 | - |
// CHECK: | matmul_f32_32x32 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | - | {{.*}} TFLOP/s | {{.*}} | 9 | - |
// CHECK: | transpose_f32_64x64 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} GB/s | {{.*}} | 9 | - |
// softmax(x).t().contiguous(), one kernel and two, against torch's.
// CHECK: | softmax_t_f32_16x32 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} GB/s | {{.*}} | 9 | - |
// CHECK: | softmax_t_unfused_f32_16x32 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} GB/s | {{.*}} | 9 | - |
// CHECK: | add_relu_1e03 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} | 9 | - |
// CHECK: | add_relu_1e04 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} | 9 | - |
// CHECK: | add_relu_1e05 | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} | 9 | - |
// CHECK: | gpt2_block | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} TFLOP/s | {{.*}}% | {{[0-9.e+-]+}}x | {{[0-9.e+-]+}}x | 9 | - |
// CHECK: | llama_mlp | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | {{.*}} TFLOP/s | {{.*}}% | {{[0-9.e+-]+}}x | {{[0-9.e+-]+}}x | 9 | - |
// CHECK: host time a call of one launch
//
// JSON: rows, errors 0
// JSON: every row: kfuse graph on and off, torch eager and torch.compile timed (the matmuls: no torch.compile); 1 capture, 9 replays
// JSON: model rows: gpt2_block, llama_mlp; 14 and 5 arguments (the parameters, then the inputs)
// JSON: sweep: as kfuse-compile's --matmul-tiles allows
//
// The model rows and the sweep's without PyTorch: kfuse alone, on inputs
// of the manifest's shapes.
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda %python %kfuse_src/bench/gpu_bench.py --dry-run --no-torch \
// RUN:   --only model,sweep --programs %t/programs --runtime %kfuse_obj/lib/libkfuse_runtime.so \
// RUN:   --out %t/out-no-torch | FileCheck %s --check-prefix=NOTORCH
// NOTORCH: | gpt2_block | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | - | - | {{.*}} TFLOP/s | {{.*}} | 9 | - |
// NOTORCH: | llama_mlp | {{[0-9.e+-]+}} | {{[0-9.e+-]+}} | - | - | {{.*}} TFLOP/s | {{.*}} | 9 | - |
