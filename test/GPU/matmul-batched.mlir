// Batched matmuls on the GPU (issue 15): the batch is grid z (blocks loop
// over z when there are more than 65535 batches), each operand reads its
// own batch dims through the matmul's indexing map, and an operand without
// a batch dim (or with a stretched batch of 1) reads the same matrix for
// every batch, without a copy. Executed through the GPU mapping emulated on
// the host against the CPU pipeline (the default kernel and the 16x16
// reference), plus the launch's grid.
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings | FileCheck %s --check-prefix=MAPPING
// RUN: kfuse-compile %s --emit=gpu | FileCheck %s --check-prefix=LAUNCH
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-reversed-pipeline %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-reference-pipeline %s
// DIMS: 5

// Every matmul kernel maps (none is refused, none falls to the host).
// MAPPING-LABEL: func.func @both_batched
// MAPPING: kf.kernel "matmul_{{[0-9]+}}" kind matmul mapping matmul
// MAPPING-LABEL: func.func @broadcast_b
// MAPPING: kf.kernel "matmul_add_relu_{{[0-9]+}}" kind matmul mapping matmul
// MAPPING-LABEL: func.func @broadcast_a
// MAPPING: kf.kernel "matmul_{{[0-9]+}}" kind matmul mapping matmul
// MAPPING-LABEL: func.func @stretched_one
// MAPPING: kf.kernel "matmul_{{[0-9]+}}" kind matmul mapping matmul
// MAPPING-LABEL: func.func @two_batch_dims
// MAPPING: kf.kernel "matmul_{{[0-9]+}}" kind matmul mapping matmul
// MAPPING-LABEL: func.func @transposed_b
// MAPPING: kf.kernel "matmul_{{[0-9]+}}" kind matmul mapping matmul
// MAPPING-LABEL: func.func @half_batched
// MAPPING: kf.kernel "matmul_{{[0-9]+}}" kind matmul mapping matmul
// MAPPING-LABEL: func.func @dynamic_batch
// MAPPING: kf.kernel "matmul_{{[0-9]+}}" kind matmul mapping matmul

// 3 batches: grid z is min(1 * 3, 65535), at least 1; 37 rows and 23
// columns are one 64x64 tile.
// LAUNCH-LABEL: func.func @both_batched
// LAUNCH: %[[N:.*]] = arith.muli %{{.*}}, %c3 : index
// LAUNCH: %[[Z:.*]] = arith.minui %[[N]], %c65535 : index
// LAUNCH: %[[GZ:.*]] = arith.maxui %[[Z]], %c1{{.*}} : index
// LAUNCH: gpu.launch_func {{.*}} blocks in (%{{.*}}, %{{.*}}, %[[GZ]]) threads in (%c16, %c16, %c1)
// The block loops over its batches: z from block_id z by grid_dim z.
// LAUNCH-LABEL: gpu.func @matmul_
// LAUNCH: %[[BZ:.*]] = gpu.block_id z
// LAUNCH: %[[DZ:.*]] = gpu.grid_dim z
// LAUNCH: scf.for %[[B:.*]] = %[[BZ]] to %{{.*}} step %[[DZ]] {
// LAUNCH: memref.load %{{.*}}[%[[B]], %{{.*}}, %{{.*}}] : memref<3x37x50xf32>
// LAUNCH: memref.load %{{.*}}[%[[B]], %{{.*}}, %{{.*}}] : memref<3x50x23xf32>
// LAUNCH: memref.store %{{.*}}, %{{.*}}[%[[B]], %{{.*}}, %{{.*}}] : memref<3x37x23xf32>
func.func @both_batched(%a: tensor<3x37x50xf32>, %b: tensor<3x50x23xf32>) -> tensor<3x37x23xf32> {
  %c = kf.matmul %a, %b : tensor<3x37x50xf32>, tensor<3x50x23xf32>
  return %c : tensor<3x37x23xf32>
}

// B has no batch dim: every batch reads the same [K, N] (a 2-D load);
// the epilogue (bias, relu) in registers. (The kernels follow the first
// host function, in one gpu.module.)
// LAUNCH-LABEL: gpu.func @matmul_add_relu_
// LAUNCH: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<50x23xf32>
func.func @broadcast_b(%x: tensor<4x17x50xf32>, %w: tensor<50x23xf32>, %bias: tensor<23xf32>) -> tensor<4x17x23xf32> {
  %h = kf.matmul %x, %w : tensor<4x17x50xf32>, tensor<50x23xf32>
  %y = kf.add %h, %bias : tensor<4x17x23xf32>, tensor<23xf32>
  %r = kf.relu %y : tensor<4x17x23xf32>
  return %r : tensor<4x17x23xf32>
}

func.func @broadcast_a(%a: tensor<65x15xf32>, %b: tensor<2x15x63xf32>) -> tensor<2x65x63xf32> {
  %c = kf.matmul %a, %b : tensor<65x15xf32>, tensor<2x15x63xf32>
  return %c : tensor<2x65x63xf32>
}

// A batch of 1 stretched to 3.
func.func @stretched_one(%a: tensor<1x20x9xf32>, %b: tensor<3x9x66xf32>) -> tensor<3x20x66xf32> {
  %c = kf.matmul %a, %b : tensor<1x20x9xf32>, tensor<3x9x66xf32>
  return %c : tensor<3x20x66xf32>
}

// Two batch dims (6 batches, z delinearized), the second broadcast on B.
func.func @two_batch_dims(%a: tensor<2x3x7x17xf32>, %b: tensor<2x1x17x5xf32>) -> tensor<2x3x7x5xf32> {
  %c = kf.matmul %a, %b : tensor<2x3x7x17xf32>, tensor<2x1x17x5xf32>
  return %c : tensor<2x3x7x5xf32>
}

// x @ w.transpose(-1, -2), read in place.
func.func @transposed_b(%x: tensor<3x33x40xf32>, %w: tensor<3x70x40xf32>) -> tensor<3x33x70xf32> {
  %t = kf.transpose %w [0, 2, 1] : tensor<3x70x40xf32>
  %c = kf.matmul %x, %t : tensor<3x33x40xf32>, tensor<3x40x70xf32>
  return %c : tensor<3x33x70xf32>
}

// f16 operands accumulate in f32 and are rounded once.
func.func @half_batched(%a: tensor<2x19x24xf16>, %b: tensor<24x21xf16>) -> tensor<2x19x21xf16> {
  %c = kf.matmul %a, %b : tensor<2x19x24xf16>, tensor<24x21xf16>
  return %c : tensor<2x19x21xf16>
}

func.func @dynamic_batch(%a: tensor<?x?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?x?xf32> {
  %c = kf.matmul %a, %b : tensor<?x?x?xf32>, tensor<?x?xf32>
  return %c : tensor<?x?x?xf32>
}
