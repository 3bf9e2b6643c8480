// The Hopper matmul (MatmulWgmma.cpp) for --gpu-chip=sm_90a, the
// arch-specific target of sm_90: 128 x 128 tiles of one warpgroup, A and B
// staged by the Tensor Memory Accelerator (cp.async.bulk.tensor, 128-byte
// swizzle) in 4 stages on mbarriers, wgmma.mma_async from shared memory,
// the epilogue after the tile went through shared memory. Plain sm_90
// keeps mma.sync (its PTX may not hold wgmma). No GPU here and no
// emulation of TMA or wgmma: the numbers are checked on a GPU
// (bench/gpu-check.sh); these tests check what is built.
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings=chip=sm_90a | FileCheck %s --check-prefix=VARIANT
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings=chip=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: kfuse-compile %s --emit=ptx --gpu-chip=sm_90a -o - | FileCheck %s --check-prefix=PTX
// RUN: kfuse-compile %s --emit=gpu --gpu-chip=sm_90a -o - | FileCheck %s --check-prefix=LAUNCH
// ptxas assembles every kernel for sm_90a without spills.
// RUN: %if ptxas %{ kfuse-compile %s --emit=ptx --gpu-chip=sm_90a -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -v -arch=sm_90a %t.ptx -o %t.cubin 2> %t.report %}
// RUN: %if ptxas %{ grep "spill" %t.report | not grep -v " 0 bytes spill stores, 0 bytes spill loads" %}
// On the fake driver: each operand's TMA descriptor made once (the second
// call reuses it), the kernel opted in to its 129 KiB of shared memory.
// RUN: kfuse-compile %s --emit=lib --gpu-chip=sm_90a -o %t.so
// RUN: rm -f %t.log
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.log kfuse-run %t.so \
// RUN:   --entry=linear_gelu --device=cuda --cuda-graph=off --warmup=1 --repeat=1 > /dev/null
// RUN: FileCheck %s --check-prefix=DRIVER < %t.log
// RUN: grep -c cuTensorMapEncodeTiled %t.log | FileCheck %s --check-prefix=TWO
// TWO: {{^2$}}

// f16, A [M][K] and B [K][N] as stored, K and N multiples of 8.
// VARIANT-LABEL: func.func @square
// VARIANT: kind matmul mapping matmul variant wgmma ->
// SM90-LABEL: func.func @square
// SM90: variant tensor_core tiles
// PTX: .target sm_90a
// PTX-LABEL: .entry matmul_0(
// PTX: mbarrier.init.shared.b64
// PTX: mbarrier.arrive.expect_tx.shared.b64
// PTX-COUNT-3: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: wgmma.fence.sync.aligned;
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// PTX: wgmma.commit_group.sync.aligned;
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX: ret;
// LAUNCH-LABEL: func.func @square
// LAUNCH: nvgpu.tma.create.descriptor %{{.*}} box[%c128{{.*}}, %c64{{.*}}] : memref<*xf16> -> <tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// LAUNCH: nvgpu.tma.create.descriptor %{{.*}} box[%c64{{.*}}, %c64{{.*}}] : memref<*xf16> -> <tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// LAUNCH: gpu.launch_func {{.*}}@kfuse_kernels::@matmul_0 blocks in ({{.*}}) threads in (%c128{{[_0-9]*}}, %c1, %c1) dynamic_shared_memory_size %c132096_i32
func.func @square(%a: tensor<256x192xf16>, %b: tensor<192x320xf16>) -> tensor<256x320xf16> {
  %c = kf.matmul %a, %b : tensor<256x192xf16>, tensor<192x320xf16>
  return %c : tensor<256x320xf16>
}

// -----

// bf16 with a bias and the exact GELU: one kernel on the wgmma path, its
// epilogue on each element of the tile after shared memory.
// VARIANT-LABEL: func.func @linear_gelu
// VARIANT: kf.kernel "matmul_add_gelu_{{[0-9]+}}" kind matmul mapping matmul variant wgmma ->
// VARIANT-NOT: kf.kernel
// PTX-LABEL: .entry matmul_add_gelu_1(
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTX: ret;
// DRIVER: cuTensorMapEncodeTiled dtype 9 dims 100x256 box 128x64 swizzle 3
// DRIVER: cuTensorMapEncodeTiled dtype 9 dims 256x384 box 64x64 swizzle 3
// DRIVER: cuFuncSetAttribute matmul_add_gelu_1 max_dynamic_shared_size_bytes 132096
// DRIVER: cuLaunchKernel matmul_add_gelu_1 grid=(3,1,1) block=(128,1,1) smem=132096
// DRIVER-NOT: cuTensorMapEncodeTiled
// DRIVER: cuLaunchKernel matmul_add_gelu_1 grid=(3,1,1) block=(128,1,1) smem=132096
func.func @linear_gelu(%x: tensor<100x256xbf16>, %w: tensor<256x384xbf16>, %bias: tensor<384xbf16>) -> tensor<100x384xbf16> {
  %h = kf.matmul %x, %w : tensor<100x256xbf16>, tensor<256x384xbf16>
  %y = kf.add %h, %bias : tensor<100x384xbf16>, tensor<384xbf16>
  %g = kf.gelu %y : tensor<100x384xbf16>
  return %g : tensor<100x384xbf16>
}

// -----

// Not yet on the wgmma path, so on mma.sync: B read transposed in place
// (x @ w.t(): a K-major B), a batch, rows that are no 16-byte multiple
// (K = 36 f16: TMA cannot address them).
// VARIANT-LABEL: func.func @transposed_b
// VARIANT: variant tensor_core tiles
// VARIANT-LABEL: func.func @batched
// VARIANT: variant tensor_core tiles
// VARIANT-LABEL: func.func @unaligned
// VARIANT: variant tensor_core tiles
func.func @transposed_b(%x: tensor<64x32xf16>, %w: tensor<48x32xf16>) -> tensor<64x48xf16> {
  %t = kf.transpose %w [1, 0] : tensor<48x32xf16>
  %h = kf.matmul %x, %t : tensor<64x32xf16>, tensor<32x48xf16>
  return %h : tensor<64x48xf16>
}
func.func @batched(%a: tensor<2x64x32xf16>, %b: tensor<2x32x64xf16>) -> tensor<2x64x64xf16> {
  %c = kf.matmul %a, %b : tensor<2x64x32xf16>, tensor<2x32x64xf16>
  return %c : tensor<2x64x64xf16>
}
func.func @unaligned(%a: tensor<64x36xf16>, %b: tensor<36x64xf16>) -> tensor<64x64xf16> {
  %c = kf.matmul %a, %b : tensor<64x36xf16>, tensor<36x64xf16>
  return %c : tensor<64x64xf16>
}
