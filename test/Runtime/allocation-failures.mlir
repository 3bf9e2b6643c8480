// Allocations that fail stop the run with one error naming the size, exit
// status 1 and no output; they were not checked (the kernel wrote through
// a null pointer: SIGSEGV).
// RUN: rm -rf %t && mkdir -p %t
//
// On the CPU: a result of 2^23 * 2^23 f32 (2^48 bytes, 256 TiB: more than
// any x86-64 process can address, whatever the overcommit policy) from
// two inputs of 2^23 f32. Fused or not, the runtime's allocation fails.
// RUN: not kfuse-run %S/Inputs/outer-sum-3d.mlir --device=cpu --dim d0=8388608 --dim d1=8388608 \
// RUN:   --dim d2=1 --output=%t/out.npy 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: not kfuse-run %S/Inputs/outer-sum-3d.mlir --device=cpu --fusion=off --dim d0=8388608 \
// RUN:   --dim d1=8388608 --dim d2=1 --output=%t/out.npy 2>&1 | FileCheck %s --check-prefix=HOST
// HOST: kfuse runtime: error: cannot allocate 281474976710656 bytes (262144 GiB) of host memory
// RUN: test ! -e %t/out.npy
//
// On a GPU (the fake driver, with a device of 8192 bytes): the caching
// allocator gives its cached buffers back to the driver when it is out of
// memory, and tries once more. 4096 bytes in use (cached) + 8192 > 8192:
// the first try fails, the second, after the free, succeeds.
// RUN: cc %S/Inputs/alloc-retry.c -I%kfuse_src/runtime/include -L%kfuse_obj/lib -lkfuse_runtime \
// RUN:   -Wl,-rpath,%kfuse_obj/lib -o %t/alloc-retry
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_MEMORY=8192 KFUSE_FAKE_CUDA_LOG=%t/log \
// RUN:   %t/alloc-retry | FileCheck %s --check-prefix=RETRY
// RETRY: alloc-retry: allocated; 2 driver allocations, 0 cache hits
// RUN: FileCheck %s --check-prefix=RETRY-LOG < %t/log
// RETRY-LOG: cuMemAlloc 4096 bytes -> buf0
// RETRY-LOG-NEXT: cuMemAlloc 8192 bytes -> out of memory (4096 in use)
// RETRY-LOG-NEXT: cuMemFree buf0
// RETRY-LOG-NEXT: cuMemAlloc 8192 bytes -> buf1
// One byte less: the retry fails too, and the run stops naming the size
// and the driver's error.
// RUN: rm %t/log
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_MEMORY=8191 KFUSE_FAKE_CUDA_LOG=%t/log \
// RUN:   not %t/alloc-retry 2>&1 | FileCheck %s --check-prefix=NOROOM
// NOROOM: kfuse runtime: error: cuMemAlloc failed for 8192 bytes: CUDA_ERROR_OUT_OF_MEMORY (out of memory)
// RUN: FileCheck %s --check-prefix=NOROOM-LOG < %t/log
// NOROOM-LOG: cuMemAlloc 8192 bytes -> out of memory (4096 in use)
// NOROOM-LOG-NEXT: cuMemFree buf0
// NOROOM-LOG-NEXT: cuMemAlloc 8192 bytes -> out of memory (0 in use)
//
// Through kfuse-run on the fake GPU: a program that needs more than the
// device has (2 inputs and a result of 4096 bytes each, 12288 > 8192).
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_MEMORY=8192 \
// RUN:   not kfuse-run %s --device=cuda --output=%t/out.npy 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: kfuse runtime: error: cuMemAlloc failed for 4096 bytes: CUDA_ERROR_OUT_OF_MEMORY (out of memory)
// RUN: test ! -e %t/out.npy
func.func @add(%a: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = kf.add %a, %b : tensor<1024xf32>, tensor<1024xf32>
  return %0 : tensor<1024xf32>
}
