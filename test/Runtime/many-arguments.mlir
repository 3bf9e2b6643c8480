// kfuse-run calls an entry with one pointer per argument and result (and
// one for the results), of any number: kfuse-compile gives every entry a
// packed twin, `kfuse_packed_<entry>(void **pointers)`, and kfuse-run
// hands it the pointers in an array. (A table of callers made at compile
// time stopped at 12 pointers, then at 64: a ViT-Tiny takes 154.) Sums of
// 20, 160 and 1,000 arguments (issue 28's bar), each an input of its own,
// checked against numpy on the CPU; and the 160 through the GPU runtime on
// the fake driver (which runs no kernel: the call and its launches, not
// numbers).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %s.py 20 %t -- %run-check -- --device=cpu --repeat=0 | FileCheck %s
// RUN: %python %s.py 160 %t -- %run-check -- --device=cpu --repeat=0 | FileCheck %s
// RUN: %python %s.py 1000 %t -- %run-check -- --device=cpu --repeat=0 | FileCheck %s
// CHECK: run_check: result0 float32[5] matches numpy
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda kfuse-run %t/sum160.mlir --device=cuda --warmup=0 --repeat=1 | FileCheck %s --check-prefix=CUDA
// CUDA: function sum160, fusion on
// CUDA: steady state: 1 calls, {{.*}}, 1 launch a call

// The library exports each entry's twin beside its C interface.
// RUN: kfuse-compile %t/sum160.mlir --emit=lib -o %t/sum160.so
// RUN: nm -D --defined-only %t/sum160.so | FileCheck %s --check-prefix=SYMBOLS
// SYMBOLS-DAG: T _mlir_ciface_sum160__gpu_fused
// SYMBOLS-DAG: T kfuse_packed_sum160__gpu_fused
// SYMBOLS-DAG: T kfuse_packed_sum160__gpu_eager
// SYMBOLS-DAG: T kfuse_packed_sum160__host_fused
// SYMBOLS-DAG: T kfuse_packed_sum160__host_eager
func.func private @none()
