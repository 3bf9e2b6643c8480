// Matmul kernels on the GPU: a 16x16 thread block per 16x16 tile of the
// result, A and B staged through shared memory 16 columns of K at a time,
// the fused epilogue (bias, relu) computed in registers before the store.
// Transpose kernels take the flat mapping, an element a thread.
// RUN: kfuse-compile %s --emit=gpu | FileCheck %s --check-prefix=LAUNCH
// RUN: kfuse-compile %s --emit=ptx | FileCheck %s --check-prefix=PTX

// LAUNCH-LABEL: func.func @linear_relu
// The grid: ceil(N / 16) tiles across, ceil(M / 16) down (2 x 3 here; the
// fake-driver test sees those numbers).
// LAUNCH: %[[M:.*]] = arith.ceildivui %c37, %c16 : index
// LAUNCH: %[[GY:.*]] = arith.maxui %[[M]], %c1 : index
// LAUNCH: %[[N:.*]] = arith.ceildivui %c23, %c16 : index
// LAUNCH: %[[GX:.*]] = arith.maxui %[[N]], %c1 : index
// LAUNCH: gpu.launch_func async [%{{.*}}] @kfuse_kernels::@matmul_add_relu_0 blocks in (%[[GX]], %[[GY]], %c1) threads in (%c16, %c16, %c1)
// LAUNCH-LABEL: gpu.func @matmul_add_relu_0(
// LAUNCH-SAME: workgroup(%[[AT:.*]] : memref<16x16xf32, #gpu.address_space<workgroup>>, %[[BT:.*]] : memref<16x16xf32, #gpu.address_space<workgroup>>)
// LAUNCH: %[[ACC:.*]] = scf.for {{.*}} -> (f32) {
// LAUNCH: memref.store %{{.*}}, %[[AT]][%{{.*}}, %{{.*}}]
// LAUNCH: memref.store %{{.*}}, %[[BT]][%{{.*}}, %{{.*}}]
// LAUNCH: gpu.barrier
// LAUNCH: scf.for {{.*}} -> (f32) {
// LAUNCH: arith.mulf
// LAUNCH: arith.addf
// LAUNCH: gpu.barrier
// LAUNCH: scf.if
// LAUNCH: arith.addf %[[ACC]],
// LAUNCH: arith.cmpf olt
// LAUNCH: arith.select
// LAUNCH: gpu.return

// PTX-LABEL: .entry matmul_add_relu_0(
// PTX: .shared .align 4 .b8 __wg_matmul_add_relu_0_0[1024]
// PTX: bar.sync 0
// PTX-LABEL: .entry transpose_1(
func.func @linear_relu(%x: tensor<37x50xf32>, %w: tensor<50x23xf32>, %b: tensor<23xf32>) -> tensor<37x23xf32> {
  %h = kf.matmul %x, %w : tensor<37x50xf32>, tensor<50x23xf32>
  %y = kf.add %h, %b : tensor<37x23xf32>, tensor<23xf32>
  %r = kf.relu %y : tensor<37x23xf32>
  return %r : tensor<37x23xf32>
}
func.func @transpose(%x: tensor<37x23xf32>) -> tensor<23x37xf32> {
  %t = kf.transpose %x [1, 0] : tensor<37x23xf32>
  return %t : tensor<23x37xf32>
}
