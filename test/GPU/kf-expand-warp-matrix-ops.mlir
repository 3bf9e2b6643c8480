// kf-expand-warp-matrix-ops (test only): nvgpu's warp-level ops become what
// each lane computes, so that kf-emulate-gpu-launches can run the
// tensor-core matmul. ldmatrix.x4 of a 16x16 f16 tile: lane l receives, of
// each 8x8 matrix j, row l / 4 at columns 2 (l % 4) and 2 (l % 4) + 1 (the
// PTX ISA's fragment layout), the row's address being the one lane
// 8 j + l / 4 supplied: a shuffle (idx) of that lane's indices, then two
// loads.
// RUN: kfuse-opt %s -split-input-file --kf-expand-warp-matrix-ops -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @ldmatrix_x4
// CHECK: gpu.launch
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32{{.*}} : index
// CHECK: %[[QUAD:.*]] = arith.remui %[[LANE]], %c4{{.*}} : index
// CHECK: %[[GROUP:.*]] = arith.divui %[[LANE]], %c4{{.*}} : index
// CHECK: %[[TWOQ:.*]] = arith.muli %[[QUAD]], %c2{{.*}} : index
// CHECK: %[[COL0:.*]] = arith.addi %[[TWOQ]], %c0{{.*}} : index
// Matrix 0: its rows' addresses come from lanes 0 + l / 4.
// CHECK: %[[FROM:.*]] = arith.addi %c0{{.*}}, %[[GROUP]] : index
// CHECK: %[[FROM32:.*]] = arith.index_cast %[[FROM]] : index to i32
// CHECK: %[[RS:.*]], %{{.*}} = gpu.shuffle idx %{{.*}}, %[[FROM32]], %c32_i32{{.*}} : i64
// CHECK: %[[ROW:.*]] = arith.index_cast %[[RS]] : i64 to index
// CHECK: %[[FROM32B:.*]] = arith.index_cast %[[FROM]] : index to i32
// CHECK: %[[CS:.*]], %{{.*}} = gpu.shuffle idx %{{.*}}, %[[FROM32B]], %c32_i32{{.*}} : i64
// CHECK: %[[CBASE:.*]] = arith.index_cast %[[CS]] : i64 to index
// CHECK: %[[COL:.*]] = arith.addi %[[CBASE]], %[[COL0]] : index
// CHECK: memref.load %{{.*}}[%[[ROW]], %[[COL]]]
// CHECK: memref.load
// Four matrices: 8 shuffles of indices and 8 loads in all, no nvgpu op.
// CHECK-COUNT-6: gpu.shuffle idx
// CHECK-NOT: nvgpu.
// CHECK: gpu.terminator
func.func @ldmatrix_x4(%src: memref<16x16xf16, #gpu.address_space<workgroup>>, %out: memref<32x4x2xf16>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %row = arith.remui %tx, %c16 : index
    %hi = arith.divui %tx, %c16 : index
    %col = arith.muli %hi, %c8 : index
    %f = nvgpu.ldmatrix %src[%row, %col] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    vector.store %f, %out[%tx, %c0, %c0] : memref<32x4x2xf16>, vector<4x2xf16>
    gpu.terminator
  }
  return
}

// -----

// An mma shape the expansion does not know (m16n8k8 on f16) is refused,
// not guessed: the emulation would otherwise check a layout the kernel
// does not use.
func.func @mma_other_shape(%a: vector<2x2xf16>, %b: vector<1x2xf16>, %c: vector<2x2xf32>, %out: memref<2x2xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{kf-expand-warp-matrix-ops: only m16n8k16 (m16n8k8 on tf32) with f32 accumulators}}
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8]} : (vector<2x2xf16>, vector<1x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %c0 = arith.constant 0 : index
    vector.store %d, %out[%c0, %c0] : memref<2x2xf32>, vector<2x2xf32>
    gpu.terminator
  }
  return
}
