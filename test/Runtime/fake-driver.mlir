// The GPU path without a GPU: kfuse-run on the CUDA device, with the fake
// driver of test/fake-cuda in place of libcuda.so.1. It logs every call;
// launches list their arguments by the .param types of the loaded PTX,
// buffers named buf0, buf1, ... in allocation order.
//
// Fused, n = 5000: kfuse-run allocates and fills a (buf0) and b (buf1), the
// program allocates c (buf2); the PTX is loaded once, at the first launch.
// Grid by hand: ceil(5000 / (256 threads * 4 elements)) = 5 blocks.
// Arguments by hand: block size, elements a thread, n, then a, b and c as
// memref descriptors (allocated, aligned, offset, size, stride), the relu
// constant 0 between b and c, and the tail loop's step 1.
// RUN: rm -f %t.log
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.log kfuse-run %s \
// RUN:   --device=cuda --warmup=0 --repeat=1 --dim d0=5000 --dim d1=5000 \
// RUN:   | FileCheck %s --check-prefix=FUSED-OUT
// RUN: FileCheck %s --check-prefix=FUSED < %t.log
// FUSED-OUT: device: cuda: kfuse fake GPU (sm_90, 132 SMs), driver CUDA 13.0
// FUSED-OUT: first call: {{.*}}, 1 launch, of which PTX JIT
// FUSED-OUT: steady state: 1 calls, {{.*}}, 1 launch a call
// FUSED-OUT: pointwise_add_relu_0 {{ *}}1
// FUSED-OUT: device peak: 3352 GB/s
// FUSED: cuInit
// FUSED-NEXT: cuMemAlloc 20224 bytes -> buf0
// FUSED-NEXT: cuMemcpyAsync buf0 <- host, 20000 bytes
// FUSED-NEXT: cuMemAlloc 20224 bytes -> buf1
// FUSED-NEXT: cuMemcpyAsync buf1 <- host, 20000 bytes
// FUSED-NEXT: cuMemAlloc 20224 bytes -> buf2
// FUSED-NEXT: cuModuleLoadDataEx entries: pointwise_add_relu_0(16 params)
// FUSED-NEXT: cuModuleGetFunction pointwise_add_relu_0
// FUSED-NEXT: cuLaunchKernel pointwise_add_relu_0 grid=(5,1,1) block=(256,1,1) smem=0 args: 5000 buf0 buf0 0 5000 1 buf1 buf1 0 5000 1 buf2 buf2 0 5000 1
// FUSED-NEXT: cuMemcpyAsync host <- buf2, 20000 bytes
// The second call: no allocation (c comes back from the cache), no load.
// FUSED-NEXT: cuLaunchKernel pointwise_add_relu_0 grid=(5,1,1) {{.*}} buf2 buf2 0 5000 1{{$}}
// FUSED-NOT: cuMemAlloc
// FUSED-NOT: cuModuleLoadDataEx
//
// Unfused: two kernels in program order; the intermediate (buf2) is written
// by add and read by relu, which writes buf3.
// RUN: rm -f %t.eager.log
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.eager.log kfuse-run %s \
// RUN:   --device=cuda --fusion=off --warmup=0 --repeat=0 --dim d0=5000 --dim d1=5000
// RUN: FileCheck %s --check-prefix=EAGER < %t.eager.log
// EAGER: cuModuleLoadDataEx entries: pointwise_add_0(16 params) pointwise_relu_1(11 params)
// EAGER: cuLaunchKernel pointwise_add_0 grid=(5,1,1) block=(256,1,1) smem=0 args: 5000 buf0 buf0 0 5000 1 buf1 buf1 0 5000 1 buf2 buf2 0 5000 1{{$}}
// EAGER: cuLaunchKernel pointwise_relu_1 grid=(5,1,1) block=(256,1,1) smem=0 args: 5000 buf2 buf2 0 5000 1 buf3 buf3 0 5000 1{{$}}
//
// One PTX for every length: 1 element is one block; 128 threads a block
// give ceil(5000 / 512) = 10 blocks.
// RUN: rm -f %t.one.log %t.b128.log
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.one.log kfuse-run %s \
// RUN:   --device=cuda --warmup=0 --repeat=0 --dim d0=1 --dim d1=1
// RUN: FileCheck %s --check-prefix=ONE < %t.one.log
// ONE: cuLaunchKernel pointwise_add_relu_0 grid=(1,1,1) block=(256,1,1) smem=0 args: 1 buf0
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.b128.log kfuse-run %s \
// RUN:   --device=cuda --warmup=0 --repeat=0 --dim d0=5000 --dim d1=5000 --block-size=128
// RUN: FileCheck %s --check-prefix=B128 < %t.b128.log
// B128: cuLaunchKernel pointwise_add_relu_0 grid=(10,1,1) block=(128,1,1) smem=0 args: 5000 buf0
//
// softmax over 1024 rows of 1024: one row kernel, a block per row (1024),
// the row kept in registers: 64 threads of 16 elements (four 128-bit
// vectors) each, the least power of two from 32 with threads * 16 >= 1024.
// Arguments by hand, in the kernel's order: the row count (1024; blocks
// past it do nothing), x (buf0, 1024x1024, strides 1024 and 1) and the
// result (buf1). The row maxima, exp(x - max) and the row sums never leave
// the chip, so no buffer is allocated for them (the column count is
// static: a constant of the kernel, not a parameter).
// RUN: rm -f %t.softmax.log
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.softmax.log kfuse-run \
// RUN:   %kfuse_src/examples/softmax.mlir --device=cuda --warmup=0 --repeat=0
// RUN: FileCheck %s --check-prefix=SOFTMAX < %t.softmax.log
// SOFTMAX: cuMemAlloc 4194304 bytes -> buf1
// SOFTMAX-NOT: cuMemAlloc
// SOFTMAX: cuModuleLoadDataEx entries: reduction_max_sub_exp_sum_div_0(15 params)
// SOFTMAX: cuLaunchKernel reduction_max_sub_exp_sum_div_0 grid=(1024,1,1) block=(64,1,1) smem=0 args: 1024 buf0 buf0 0 1024 1024 1024 1 buf1 buf1 0 1024 1024 1024 1
// SOFTMAX-NOT: cuMemAlloc
//
// Short rows take one warp: softmax over 4 rows of 8 is 4 blocks of 32.
// RUN: rm -f %t.short.log
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.short.log kfuse-run \
// RUN:   %S/../GPU/row-kernels.mlir --entry=softmax_rows --device=cuda --warmup=0 --repeat=0
// RUN: FileCheck %s --check-prefix=SHORT < %t.short.log
// SHORT: cuLaunchKernel reduction_max_sub_exp_sum_div_0 grid=(4,1,1) block=(32,1,1)
//
// A matmul with its epilogue: 37x50 @ 50x23 in f32, the SIMT kernel's
// 64x64 tiles: 1 across, 1 down, 16x16 threads each (4x4 outputs a thread).
// RUN: rm -f %t.mm.log
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.mm.log kfuse-run \
// RUN:   %S/../GPU/matmul-kernels.mlir --entry=linear_relu --device=cuda --warmup=0 --repeat=0
// RUN: FileCheck %s --check-prefix=MATMUL < %t.mm.log
// MATMUL: cuLaunchKernel matmul_add_relu_0 grid=(1,1,1) block=(16,16,1)
//
// A full sum of 1e6 elements in one launch: min(ceil(1e6 / (256 * 4)),
// 1024) = 977 blocks write their partials into a buffer of 977 floats
// (3908 bytes, 4096 from the allocator: buf2); the last block to take a
// ticket (a .global counter in the PTX module: no allocation, no argument)
// combines them into the 0-d result (buf1). One kernel in the report, one
// entry in the module, one launch.
// RUN: rm -f %t.full.log
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.full.log kfuse-run \
// RUN:   %S/Inputs/full-sum.mlir --device=cuda --warmup=0 --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=FULL-OUT
// FULL-OUT: kernels {{ *}}1 {{ *}}1
// FULL-OUT: first call: {{.*}}, 1 launch,
// RUN: FileCheck %s --check-prefix=FULL < %t.full.log
// FULL: cuMemAlloc 4096 bytes -> buf2
// FULL: cuModuleLoadDataEx entries: reduction_sum_0(14 params)
// The kernel takes the element count first (the compensated sum's runs of
// 16 columns use it before the input), then the partials, then the result.
// FULL: cuLaunchKernel reduction_sum_0 grid=(977,1,1) block=(256,1,1) smem=0 args: 1000000 buf0 buf0 0 1000000 1 buf2 buf2 0 977 1 buf1 buf1 0
// FULL-NOT: cuLaunchKernel
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = kf.add %a, %b : tensor<?xf32>, tensor<?xf32>
  %1 = kf.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}
