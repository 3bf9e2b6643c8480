// Transposes whose last two loops are small (a patch embedding's 2 x 2
// kernel positions: ConvNeXt's downsampling; a stem's 8 x 8 patches): the
// loops before the tile's whose static sizes fit 4K elements run inside a
// block (HostTranspose.cpp's gridLoops), where a block of one 2 x 2 tile
// each divided its index into six for every four elements (95 us for 16K
// elements on one core). A transpose that keeps the last dim last moves
// rows (below). Numbers against numpy's transpose.
// RUN: kfuse-opt %s --kf-host-runtime-pipeline --mlir-print-ir-after=kf-map-kernels-to-host \
// RUN:   -o /dev/null 2>&1 | FileCheck %s
// RUN: %run-check %s --input "arg0=f32[16x16x4x2x4x2]" --expect "np.transpose(arg0, (0, 2, 4, 1, 3, 5))" \
// RUN:   -- --entry=patches --device=cpu --repeat=1 | FileCheck %s --check-prefix=NUM
// RUN: %run-check %s --input "arg0=f32[40x3x8x4x8x4]" --expect "np.transpose(arg0, (0, 1, 3, 5, 2, 4))" \
// RUN:   -- --entry=stem --device=cpu --repeat=1 | FileCheck %s --check-prefix=NUM
// RUN: %run-check %s --input "arg0=f32[16x17x3x3x64]" --expect "np.transpose(arg0, (2, 0, 3, 1, 4))" \
// RUN:   -- --entry=head_split --device=cpu --repeat=1 | FileCheck %s --check-prefix=NUM
// RUN: %run-check %s --input "arg0=f32[4x5x3x20]" --expect "np.transpose(arg0, (0, 2, 1, 3))" \
// RUN:   -- --entry=rows_with_tail --device=cpu --repeat=1 | FileCheck %s --check-prefix=NUM
// RUN: %run-check %s --input "arg0=f32[2x64x4x16]" --expect "np.transpose(arg0, (0, 2, 3, 1))" \
// RUN:   -- --entry=key_transpose --device=cpu --repeat=1 | FileCheck %s --check-prefix=NUM
// RUN: %run-check %s --input "arg0=f32[2x40x3x12]" --expect "np.transpose(arg0, (0, 2, 3, 1))" \
// RUN:   -- --entry=key_transpose_12 --device=cpu --repeat=1 | FileCheck %s --check-prefix=NUM
// NUM: run_check: result0 float32[{{.*}}] matches numpy

// The last three outer loops in a block (4 x 4 x 16 tiles of 4: 1,024
// elements; with the first, 16K would not fit 4K), the first over the
// grid: 16 blocks, which a second thread can share. No division of an
// index inside the block's loops.
// CHECK-LABEL: func.func @patches
// CHECK: gpu.launch
// CHECK-NOT: scf.for
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}} step %c1{{.*}} {
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}} step %c1{{.*}} {
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c16{{.*}} step %c1{{.*}} {
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: memref.load
// CHECK: memref.store
// CHECK: gpu.terminator
func.func @patches(%x: tensor<16x16x4x2x4x2xf32>) -> tensor<16x4x4x16x2x2xf32> {
  %t = kf.transpose %x [0, 2, 4, 1, 3, 5] : tensor<16x16x4x2x4x2xf32>
  return %t : tensor<16x4x4x16x2x2xf32>
}

// 8 x 8 tiles, 40 x 3 x 4 x 4 of them: the last three outer loops (3,072
// elements) in a block, the first over the grid (40 blocks).
// CHECK-LABEL: func.func @stem
// CHECK: gpu.launch
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c3{{.*}} step %c1{{.*}} {
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}} step %c1{{.*}} {
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}} step %c1{{.*}} {
// CHECK-NOT: scf.for %{{.*}} = %c0{{.*}} to %c40
// CHECK: gpu.terminator
func.func @stem(%x: tensor<40x3x8x4x8x4xf32>) -> tensor<40x3x4x4x8x8xf32> {
  %t = kf.transpose %x [0, 1, 3, 5, 2, 4] : tensor<40x3x8x4x8x4xf32>
  return %t : tensor<40x3x4x4x8x8xf32>
}

// A transpose that keeps the last dim last (ViT-Tiny's q/k/v head split)
// moves whole rows of 64: vectors along each row (HostPointwise.cpp's
// movesRows), not 32 x 32 tiles, which with 17 rows are never full and
// ran element by element (62 us on one core).
// CHECK-LABEL: func.func @head_split
// CHECK: gpu.launch
// CHECK-NOT: to %c32{{(_[0-9]+)?}} step
// CHECK: vector.load %{{.*}} : memref<16x17x3x3x64xf32>, vector<8xf32>
// CHECK: vector.store %{{.*}} : memref<3x16x3x17x64xf32>, vector<8xf32>
// CHECK: gpu.terminator
func.func @head_split(%x: tensor<16x17x3x3x64xf32>) -> tensor<3x16x3x17x64xf32> {
  %t = kf.transpose %x [2, 0, 3, 1, 4] : tensor<16x17x3x3x64xf32>
  return %t : tensor<3x16x3x17x64xf32>
}

// Rows of 20: two vectors of 8 and a tail of 4 element by element.
// CHECK-LABEL: func.func @rows_with_tail
// CHECK: gpu.launch
// CHECK: vector.load %{{.*}} : memref<4x5x3x20xf32>, vector<8xf32>
// CHECK: memref.load %{{.*}} : memref<4x5x3x20xf32>
// CHECK: gpu.terminator
func.func @rows_with_tail(%x: tensor<4x5x3x20xf32>) -> tensor<4x3x5x20xf32> {
  %t = kf.transpose %x [0, 2, 1, 3] : tensor<4x5x3x20xf32>
  return %t : tensor<4x3x5x20xf32>
}

// Attention's k^T ([B, T, H, D] to [B, H, D, T], BERT's and T5's: D = 16):
// the input's last dim runs along the tile's rows and T is another of its
// dims, so 8 x 8 blocks go through registers (HostTranspose.cpp's
// readsAcross), the tile 16 x 32 (tileSide: a head's 16 dims are one
// side). Before, only a swap of the last two dims did, in 32 x 32 tiles
// that 16 rows never fill: element by element, 11 us a call in BERT.
// CHECK-LABEL: func.func @key_transpose
// CHECK: gpu.launch
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c16{{.*}} step %c8
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c32{{.*}} step %c8
// CHECK: vector.load %{{.*}} : memref<2x64x4x16xf32>, vector<8xf32>
// CHECK: vector.transpose
// CHECK: vector.store %{{.*}} : memref<2x4x16x64xf32>, vector<8xf32>
// CHECK: gpu.terminator
func.func @key_transpose(%x: tensor<2x64x4x16xf32>) -> tensor<2x4x16x64xf32> {
  %t = kf.transpose %x [0, 2, 3, 1] : tensor<2x64x4x16xf32>
  return %t : tensor<2x4x16x64xf32>
}

// Not through registers: 12 dims are no whole number of blocks of 8, so
// the tile's side stays 32 and its 12 rows run element by element.
// CHECK-LABEL: func.func @key_transpose_12
// CHECK: gpu.launch
// CHECK-NOT: vector.transpose
// CHECK: memref.load %{{.*}} : memref<2x40x3x12xf32>
// CHECK: gpu.terminator
func.func @key_transpose_12(%x: tensor<2x40x3x12xf32>) -> tensor<2x3x12x40xf32> {
  %t = kf.transpose %x [0, 2, 3, 1] : tensor<2x40x3x12xf32>
  return %t : tensor<2x3x12x40xf32>
}
