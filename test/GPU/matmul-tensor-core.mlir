// The tensor-core matmul (MatmulTensorCore.cpp): for sm_80 and later, an
// f16 or bf16 matmul (f32 accumulation) is a block of 4 warps per 64x64
// tile, each warp a 32x32 quarter in mma.sync.m16n8k16 accumulators; A and
// B staged by steps of 32 of K in two stages of dynamic shared memory
// (16-byte aligned) with cp.async, the fragments loaded with ldmatrix
// (.trans for an operand stored with M or N contiguous), the epilogue in
// registers and one store. f32 keeps the SIMT kernel; sm_75 has no
// mma.m16n8k16 on bf16 nor cp.async: the SIMT kernel there.
// The numbers: matmul-tensor-core-emulated.mlir; ptxas (no spills, sm_80
// and sm_90): ptxas-spills.mlir.
// RUN: kfuse-compile %s --emit=ptx --gpu-chip=sm_80 | FileCheck %s --check-prefix=PTX
// RUN: kfuse-compile %s --emit=ptx --gpu-chip=sm_90 | FileCheck %s --check-prefix=PTX
// RUN: kfuse-compile %s --emit=ptx --gpu-chip=sm_75 | FileCheck %s --check-prefix=SM75
// RUN: kfuse-compile %s --emit=gpu --gpu-chip=sm_80 | FileCheck %s --check-prefix=LAUNCH
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings="chip=sm_86" --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --kf-hoist-kernel-buffers --kf-map-kernels-to-gpu | FileCheck %s --check-prefix=PASS
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --kf-hoist-kernel-buffers --kf-map-kernels-to-gpu | FileCheck %s --check-prefix=DEFAULT
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings="chip=sm_80 tf32=true" --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --kf-hoist-kernel-buffers --kf-map-kernels-to-gpu | FileCheck %s --check-prefix=TF32

// f16, both operands as stored (A [m][k] read by ldmatrix, B [k][n] by
// ldmatrix.trans), the table's 64 x 64 x 32 tiles in 2 stages: the
// prologue's copies of stage 0 (2 chunks of 16 bytes a thread an operand)
// committed; each step waits for its stage's group (none newer is in
// flight with 2 stages), one barrier, copies the next stage and
// multiplies: per 16 of K, 4 ldmatrix.x4 and 8 mma.sync a warp; after the
// loop, no copy is left in flight.
// PTX-LABEL: .entry matmul_0(
// PTX-COUNT-4: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// PTX: cp.async.commit_group;
// PTX: cp.async.wait_group 0;
// PTX-NEXT: bar.sync 0;
// PTX-COUNT-4: cp.async.cg.shared.global
// PTX: cp.async.commit_group;
// PTX-COUNT-2: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-COUNT-2: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-COUNT-2: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-COUNT-2: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: mma.sync
// PTX: cp.async.wait_group 0;
// PTX-NEXT: bar.sync 0;
// PTX-NOT: mma.sync
// PTX: ret;
func.func @half(%a: tensor<128x80xf16>, %b: tensor<80x96xf16>) -> tensor<128x96xf16> {
  %c = kf.matmul %a, %b : tensor<128x80xf16>, tensor<80x96xf16>
  return %c : tensor<128x96xf16>
}

// bf16 (NVVM's mma.sync: nvgpu lowers f16 only), B = w.t() read in place:
// w [n][k] is staged [n][k] and read by ldmatrix without .trans; bias and
// relu applied to the accumulators.
// PTX-LABEL: .entry matmul_add_relu_1(
// PTX: cp.async.commit_group;
// PTX: cp.async.wait_group 0;
// PTX-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: .trans
// PTX: ret;
func.func @linear_relu_bf16(%x: tensor<70x48xbf16>, %w: tensor<72x48xbf16>, %bias: tensor<72xbf16>) -> tensor<70x72xbf16> {
  %t = kf.transpose %w [1, 0] : tensor<72x48xbf16>
  %h = kf.matmul %x, %t : tensor<70x48xbf16>, tensor<48x72xbf16>
  %y = kf.add %h, %bias : tensor<70x72xbf16>, tensor<72xbf16>
  %r = kf.relu %y : tensor<70x72xbf16>
  return %r : tensor<70x72xbf16>
}

// f32 stays on the SIMT kernel without `tf32` (matmul-tensor-core-tf32.mlir).
// PTX-LABEL: .entry matmul_2(
// PTX-NOT: mma.sync
// PTX-NOT: cp.async
// PTX: fma.rn.f32
func.func @single(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c = kf.matmul %a, %b : tensor<64x64xf32>, tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// SM75-NOT: mma.sync
// SM75-NOT: ldmatrix
// SM75-NOT: cp.async

// 128 threads a block, the two stages of A and B (4 x 64 x 40 f16) in 20
// KiB of dynamic shared memory; the f32 matmul keeps 16x16 threads and its
// workgroup attributions.
// LAUNCH-LABEL: func.func @half
// LAUNCH: gpu.launch_func {{.*}} @kfuse_kernels::@matmul_0 blocks in ({{.*}}) threads in (%c128{{.*}}, %c1, %c1) dynamic_shared_memory_size %c20480_i32
// LAUNCH-LABEL: gpu.func @matmul_0(
// LAUNCH-NOT: workgroup(
// LAUNCH: gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// LAUNCH: %[[S:.*]] = memref.view {{.*}} to memref<10240xf16, #gpu.address_space<workgroup>>
// LAUNCH: nvgpu.device_async_copy %arg0[{{.*}}], %[[S]][{{.*}}], 8, %{{.*}} {bypassL1}
// LAUNCH: nvgpu.device_async_create_group
// LAUNCH: scf.for
// LAUNCH: nvvm.cp.async.wait.group 0
// LAUNCH: gpu.barrier
// LAUNCH: nvgpu.device_async_copy
// LAUNCH: nvgpu.device_async_create_group
// LAUNCH: nvgpu.ldmatrix %[[S]][{{.*}}] {numTiles = 4 : i32, transpose = false}
// LAUNCH: nvgpu.ldmatrix %[[S]][{{.*}}] {numTiles = 4 : i32, transpose = true}
// LAUNCH: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// LAUNCH: scf.yield
// LAUNCH: nvvm.cp.async.wait.group 0
// LAUNCH: gpu.barrier
// LAUNCH-LABEL: gpu.func @matmul_add_relu_1(
// LAUNCH: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// LAUNCH-LABEL: gpu.func @matmul_2(
// LAUNCH-SAME: workgroup(
// LAUNCH-NOT: mma.sync
// LAUNCH-LABEL: func.func @linear_relu_bf16
// LAUNCH: gpu.launch_func {{.*}} @kfuse_kernels::@matmul_add_relu_1 {{.*}} threads in (%c128{{.*}}, %c1, %c1) dynamic_shared_memory_size %c20480_i32
// LAUNCH-LABEL: func.func @single
// LAUNCH: gpu.launch_func {{.*}} @kfuse_kernels::@matmul_2 {{.*}} threads in (%c16, %c16, %c1)
// LAUNCH-NOT: dynamic_shared_memory_size

// The pass's `chip` option: from sm_80 the tensor-core kernel, by default
// (sm_75) the SIMT one.
// PASS-LABEL: func.func @half
// PASS: nvgpu.mma.sync
// PASS-LABEL: func.func @linear_relu_bf16
// PASS: nvvm.mma.sync
// PASS-LABEL: func.func @single
// PASS-NOT: mma.sync
// TF32-LABEL: func.func @single
// TF32: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// DEFAULT-LABEL: func.func @half
// DEFAULT: gpu.launch
// DEFAULT-NOT: mma.sync
