// Matmul kernels on the GPU: a 16x16 thread block per 64x64 tile of the
// result, each thread a 4x4 micro-tile of accumulators in registers, A and
// B staged through shared memory 16 steps of K at a time, the fused
// epilogue (bias, relu) computed in registers before the one store (the
// matmul's own result, read only by the epilogue, is never stored: the
// launch does not even take its buffer). Transpose kernels take their own
// mapping.
// RUN: kfuse-compile %s --emit=gpu | FileCheck %s --check-prefix=LAUNCH
// RUN: kfuse-compile %s --emit=ptx | FileCheck %s --check-prefix=PTX

// LAUNCH-LABEL: func.func @linear_relu
// The grid: ceil(N / 64) tiles across, ceil(M / 64) down (1 x 1 here).
// LAUNCH: %[[N:.*]] = arith.ceildivui %c23, %c64{{.*}} : index
// LAUNCH: %[[GX:.*]] = arith.maxui %[[N]], %c1{{.*}} : index
// LAUNCH: %[[M:.*]] = arith.ceildivui %c37, %c64{{.*}} : index
// LAUNCH: %[[GY:.*]] = arith.maxui %[[M]], %c1{{.*}} : index
// LAUNCH: gpu.launch_func async [%{{.*}}] @kfuse_kernels::@matmul_add_relu_0 blocks in (%[[GX]], %[[GY]], %{{.*}}) threads in (%c16, %c16, %c1) args(%arg0 : memref<37x50xf32>, %arg1 : memref<50x23xf32>, %arg2 : memref<23xf32>, %{{[a-z_0-9]+}} : memref<37x23xf32>)
// LAUNCH-LABEL: gpu.func @matmul_add_relu_0(
// LAUNCH-SAME: workgroup(%[[AT:.*]] : memref<16x17xvector<4xf32>, #gpu.address_space<workgroup>>, %[[BT:.*]] : memref<16x17xvector<4xf32>, #gpu.address_space<workgroup>>)
// 16 accumulators a thread, carried over the steps of K.
// LAUNCH: %[[ACC:.*]]:16 = scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// LAUNCH: memref.store %{{.*}}, %[[AT]][%{{.*}}, %{{.*}}]
// LAUNCH: memref.store %{{.*}}, %[[BT]][%{{.*}}, %{{.*}}]
// LAUNCH: gpu.barrier
// LAUNCH: memref.load %[[AT]]{{.*}} : memref<16x17xvector<4xf32>, #gpu.address_space<workgroup>>
// LAUNCH: memref.load %[[BT]]{{.*}} : memref<16x17xvector<4xf32>, #gpu.address_space<workgroup>>
// LAUNCH: arith.mulf
// LAUNCH: arith.addf
// LAUNCH: gpu.barrier
// The epilogue of the first accumulator, then its one store.
// LAUNCH: scf.if
// LAUNCH: arith.addf %[[ACC]]#0,
// LAUNCH: arith.cmpf olt
// LAUNCH: arith.select
// LAUNCH-NEXT: memref.store
// LAUNCH-NOT: memref.store
// LAUNCH: scf.if
// LAUNCH: arith.addf %[[ACC]]#1,
// LAUNCH: gpu.return

// PTX-LABEL: .entry matmul_add_relu_0(
// PTX: .shared .align 16 .b8 __wg_matmul_add_relu_0_0[4352]
// PTX: bar.sync 0
// PTX: ld.shared.v4
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
