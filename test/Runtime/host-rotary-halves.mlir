// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-host --cse | FileCheck %s
// RUN: kfuse-opt %s -split-input-file "--kf-map-kernels-to-host=vector-bits=512" --cse | FileCheck %s --check-prefix=ZMM
// RUN: %run-check %S/Inputs/rotary-halves.mlir --input "arg0=f32[2x5x3x16]" --input "arg1=f32[5x16]" --input "arg2=f32[5x16]" \
// RUN:   --expect "(lambda q, c, s: (lambda t: t * c + np.concatenate([-t[..., 8:], t[..., :8]], -1) * s)(q.transpose(0, 2, 1, 3)))(arg0, arg1, arg2)" \
// RUN:   -- --entry=rotary --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=NUMPY
// NUMPY: check against the CPU, unfused: {{.*}}: ok
// NUMPY: run_check: result0 float32[2, 3, 5, 16] matches numpy
// RUN: %run-check %S/Inputs/rotary-halves.mlir --input "arg0=f32[13x7x8]" --input "arg1=f32[7x8]" --input "arg2=f32[7x8]" \
// RUN:   --expect "(lambda q, c, s: q * c + np.concatenate([-q[..., 4:], q[..., :4]], -1) * s)(arg0, arg1, arg2)" \
// RUN:   -- --entry=rotary8 --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=NUMPY8
// NUMPY8: check against the CPU, unfused: {{.*}}: ok
// NUMPY8: run_check: result0 float32[13, 7, 8] matches numpy

// A kf.cat along the row (rotate_half of a rotary embedding) reads its
// inputs at (d + a) mod m + c, maps that are no shift of the row's loop:
// such a kernel ran element by element, six index divisions an element
// (Mistral's four rotary kernels, 32K elements each: 71-84 us on one
// core). The host's rows of vectors (HostPointwise.cpp) read them as
// vectors that stay inside a period: the lanes are the greatest common
// divisor of the register's, each m and each a (HostVectorBody.cpp,
// lanesWithinPeriods). The numbers of both programs above (rows of 16 and
// of 8) are checked against numpy.

// Rows of 16, halves of 8: vectors of 8 lanes read q at d mod 8 + 8 and
// its low half at d mod 8 from the first lane's index; the cat's select
// compares the lanes' indices. 512-bit registers (16 lanes) still read 8.
// CHECK-LABEL: func.func @halves
// CHECK: gpu.launch
// CHECK: scf.for %[[D:.*]] = %{{.*}} to %{{.*}} step %c8
// CHECK: vector.load %arg0[{{.*}}] : memref<2x5x3x16xf32>, vector<8xf32>
// CHECK: arith.remsi %[[D]], %c8
// CHECK: %[[M:.*]] = arith.select %{{.*}} : index
// CHECK: %[[HI:.*]] = arith.addi %[[M]], %c8
// CHECK: vector.load %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %[[HI]]] : memref<2x5x3x16xf32>, vector<8xf32>
// CHECK: vector.load %arg3[%{{.*}}, %{{.*}}, %{{.*}}, %[[M]]] : memref<2x3x5x8xf32, strided<[240, 80, 16, 1]>>, vector<8xf32>
// CHECK: arith.cmpi ult, %{{.*}} : vector<8xindex>
// CHECK: arith.select %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK: vector.store %{{.*}}, %arg4[{{.*}}] : memref<2x3x5x16xf32>, vector<8xf32>
// ZMM-LABEL: func.func @halves
// ZMM: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8
// ZMM: vector.store %{{.*}}, %arg4[{{.*}}] : memref<2x3x5x16xf32>, vector<8xf32>
func.func @halves(%q: memref<2x5x3x16xf32>, %cos: memref<5x16xf32>, %sin: memref<5x16xf32>, %lo: memref<2x3x5x8xf32, strided<[240, 80, 16, 1]>>, %y: memref<2x3x5x16xf32>) {
  %c8 = arith.constant 8 : index
  kf.kernel "pointwise_neg_cat_mul_mul_add_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3 mod 8 + 8)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3 mod 8)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q, %cos, %q, %lo, %sin : memref<2x5x3x16xf32>, memref<5x16xf32>, memref<2x5x3x16xf32>, memref<2x3x5x8xf32, strided<[240, 80, 16, 1]>>, memref<5x16xf32>) outs(%y : memref<2x3x5x16xf32>) {
    ^bb0(%in: f32, %c: f32, %h: f32, %l: f32, %s: f32, %out: f32):
      %0 = linalg.index 3 : index
      %1 = arith.negf %h : f32
      %2 = arith.cmpi ult, %0, %c8 : index
      %3 = arith.select %2, %1, %l : f32
      %4 = arith.mulf %3, %s : f32
      %5 = arith.mulf %in, %c : f32
      %6 = arith.addf %5, %4 : f32
      linalg.yield %6 : f32
    }
  }
  return
}

// -----

// A period shifted by 2 ((d + 2) mod 8): a vector from a multiple of 2
// stays inside a period only up to 2 lanes.
// CHECK-LABEL: func.func @shifted_period
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c2
// CHECK: vector.load %arg0[{{.*}}] : memref<3x8xf32>, vector<2xf32>
// CHECK: vector.store %{{.*}}, %arg1[{{.*}}] : memref<3x8xf32>, vector<2xf32>
func.func @shifted_period(%x: memref<3x8xf32>, %y: memref<3x8xf32>) {
  kf.kernel "pointwise_roll_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, (d1 + 2) mod 8)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<3x8xf32>) outs(%y : memref<3x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.negf %in : f32
      linalg.yield %0 : f32
    }
  }
  return
}

// -----

// Not vectors: shifted by 1 ((d + 1) mod 8, a roll by one), every lane
// would cross a period, so the kernel keeps the flat element-by-element
// loop (its index divided by the row length).
// CHECK-LABEL: func.func @roll_by_one
// CHECK: gpu.launch
// CHECK-NOT: vector.load
// CHECK: arith.remui
// CHECK: memref.load %arg0
// CHECK-NOT: vector.
// CHECK: return
func.func @roll_by_one(%x: memref<3x8xf32>, %y: memref<3x8xf32>) {
  kf.kernel "pointwise_roll_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, (d1 + 1) mod 8)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<3x8xf32>) outs(%y : memref<3x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.negf %in : f32
      linalg.yield %0 : f32
    }
  }
  return
}
