// Driver failures stop the run loudly: the call, the CUDA error's name and
// string, the kernel; exit status 1, no signal, no output file.
//
// A launch that fails.
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_FAIL=cuLaunchKernel:1:719 \
// RUN:   not kfuse-run %s --device=cuda --output=%t.launch.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LAUNCH
// RUN: test ! -e %t.launch.npy
// LAUNCH: kfuse runtime: error: cuLaunchKernel failed for kernel 'pointwise_add_relu_0': CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)
//
// An error the kernel causes shows at the next synchronization, which names
// the last kernel issued.
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_FAIL=cuStreamSynchronize:2:700 \
// RUN:   not kfuse-run %s --device=cuda 2>&1 | FileCheck %s --check-prefix=ASYNC
// ASYNC: error: cuStreamSynchronize failed for the stream (last: pointwise_add_relu_0): CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)
//
// A driver too old for the PTX (CUDA 11.8 reads PTX ISA 7.8, kfuse emits
// 8.0): both versions are named, and the JIT log is shown.
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_VERSION=11080 \
// RUN:   not kfuse-run %s --device=cuda 2>&1 | FileCheck %s --check-prefix=PTX
// PTX: error: cuModuleLoadDataEx failed for the module of kernel 'pointwise_add_relu_0': CUDA_ERROR_UNSUPPORTED_PTX_VERSION
// PTX-NEXT: the PTX is ISA 8.0; the driver is CUDA 11.8, too old for it: update the driver
// PTX-NEXT: PTX JIT log: ptxas application ptx input, line 5; fatal   : Unsupported .version 8.0; current version is '7.8'
//
// Out of device memory.
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_FAIL=cuMemAlloc:3:2 \
// RUN:   not kfuse-run %s --device=cuda 2>&1 | FileCheck %s --check-prefix=OOM
// OOM: error: cuMemAlloc failed for 4000000 bytes: CUDA_ERROR_OUT_OF_MEMORY (out of memory)
//
// A driver that sees no device: auto runs on the CPU and says so in one
// line; cuda refuses.
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_DEVICES=0 \
// RUN:   kfuse-run %s --repeat=1 2>&1 | FileCheck %s --check-prefix=NODEV-AUTO
// NODEV-AUTO: kfuse-run: running on the CPU: the CUDA driver sees no device
// NODEV-AUTO: device: cpu
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_DEVICES=0 \
// RUN:   not kfuse-run %s --device=cuda 2>&1 | FileCheck %s --check-prefix=NODEV-CUDA
// NODEV-CUDA: kfuse-run: error: cannot use the device: the CUDA driver sees no device
//
// No driver at all.
// RUN: env KFUSE_CUDA_DRIVER=%t.nonexistent.so not kfuse-run %s --device=cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NODRIVER
// NODRIVER: kfuse-run: error: cannot use the device: no CUDA driver: cannot open {{.*}}nonexistent.so
//
// A program once refused GPU code (a batched matmul) runs on the device
// now, on --device=cuda and under auto (no kernel lacks a GPU mapping, so
// auto chooses the CPU only when there is no GPU).
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda kfuse-run %S/Inputs/batched-matmul.mlir --device=cuda --repeat=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BATCHED
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda kfuse-run %S/Inputs/batched-matmul.mlir --repeat=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BATCHED
// BATCHED-NOT: running on the CPU
// BATCHED: device: cuda: kfuse fake GPU
func.func @add_relu(%a: tensor<1000000xf32>, %b: tensor<1000000xf32>) -> tensor<1000000xf32> {
  %0 = kf.add %a, %b : tensor<1000000xf32>, tensor<1000000xf32>
  %1 = kf.relu %0 : tensor<1000000xf32>
  return %1 : tensor<1000000xf32>
}
