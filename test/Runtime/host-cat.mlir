// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-host --cse | FileCheck %s
// RUN: %run-check %S/Inputs/host-cat.mlir --input "arg0=f32[2x3x5]" --input "arg1=f32[2x4x5]" --input "arg2=f32[2x1x5]" \
// RUN:   --expect "np.concatenate([arg0, arg1, arg2], 1)" -- --entry=middle --device=cpu --repeat=1 --check \
// RUN:   | FileCheck %s --check-prefix=MIDDLE
// MIDDLE: run_check: result0 float32[2, 8, 5] matches numpy
// RUN: %run-check %S/Inputs/host-cat.mlir --input "arg0=i32[7x3]" --input "arg1=i32[7x19]" --input "arg2=i32[7x1]" \
// RUN:   --expect "np.concatenate([arg0, arg1, arg2], 1)" -- --entry=last --device=cpu --repeat=1 \
// RUN:   | FileCheck %s --check-prefix=LAST
// LAST: run_check: result0 int32[7, 23] matches numpy (max abs error 0, max rel error 0)
// RUN: %run-check %S/Inputs/host-cat.mlir --input "arg0=f32[3x10x10]" \
// RUN:   --expect "np.stack([arg0[:, 0::2, 0::2], arg0[:, 1::2, 1::2]], 1)" -- --entry=windows --device=cpu --repeat=1 \
// RUN:   | FileCheck %s --check-prefix=WINDOWS
// WINDOWS: run_check: result0 float32[3, 2, 5, 5] matches numpy (max abs error 0, max rel error 0)
// RUN: %run-check %S/Inputs/host-cat.mlir --input "arg0=f32[4x3]" --input "arg1=f32[4x5]" \
// RUN:   --expect "np.exp(np.concatenate([arg0, arg1], 1))" -- --entry=cat_exp --device=cpu --repeat=1 --check \
// RUN:   | FileCheck %s --check-prefix=CAT-EXP
// CAT-EXP: run_check: result0 float32[4, 8] matches numpy
// RUN: %run-check %S/Inputs/host-cat.mlir --input "arg0=f32[2x3x6x11]" \
// RUN:   --expect "np.pad(arg0, ((0, 0), (0, 0), (1, 1), (2, 2)))" -- --entry=pad2 --device=cpu --repeat=1 \
// RUN:   | FileCheck %s --check-prefix=PAD2
// PAD2: run_check: result0 float32[2, 3, 8, 15] matches numpy (max abs error 0,
// RUN: %run-check %S/Inputs/host-cat.mlir --input "arg0=f32[5x9]" \
// RUN:   --expect "np.pad(arg0, ((0, 0), (3, 9)), constant_values=1.5)" -- --entry=pad_last --device=cpu --repeat=1 \
// RUN:   | FileCheck %s --check-prefix=PAD-LAST
// PAD-LAST: run_check: result0 float32[5, 21] matches numpy (max abs error 0, max rel error 0)
// RUN: %run-check %S/Inputs/host-cat.mlir --input "arg0=i32[3x40]" \
// RUN:   --expect "np.pad(arg0, ((0, 0), (10, 70)), constant_values=7)" -- --entry=pad_i32 --device=cpu --repeat=1 \
// RUN:   | FileCheck %s --check-prefix=PAD-I32
// PAD-I32: run_check: result0 int32[3, 120] matches numpy (max abs error 0, max rel error 0)
// RUN: %run-check %S/Inputs/host-cat.mlir --input "arg0=f32[2x5x7x3]" \
// RUN:   --expect "np.pad(arg0.transpose(0, 3, 1, 2), ((0, 0), (0, 0), (2, 2), (2, 2)))" -- --entry=pad_nchw \
// RUN:   --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=PAD-NCHW
// PAD-NCHW: check against the CPU, unfused: {{.*}}: ok
// PAD-NCHW: run_check: result0 float32[2, 3, 9, 11] matches numpy (max abs error 0,
// RUN: %run-check %S/Inputs/host-cat.mlir --input "arg0=f32[2x3x5x10]" --input "arg1=f32[3x1x1]" --input "arg2=f32[3x1x1]" \
// RUN:   --expect "np.pad(np.maximum(arg0.astype(np.float64) * arg1 + arg2, 0), ((0, 0), (0, 0), (1, 1), (1, 1)))" \
// RUN:   --rtol 1e-6 --atol 1e-7 -- --entry=bn_relu_pad --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=BN-PAD
// BN-PAD: check against the CPU, unfused: {{.*}}: ok
// BN-PAD: run_check: result0 float32[2, 3, 7, 12] matches numpy

// A kernel that is one kf.cat (HostCat.cpp): each input copied to its range
// of the result, a block an (input, part of its rows), grid x over the
// inputs and an scf.index_switch on it; rows as vectors of 8 where both
// sides are contiguous along the last dim, the offset added to the joined
// dim's index. The numbers above are checked against numpy (the im2col-like
// strided windows copied element by element, exactly).

// Along the last dim: input 1 lands at column j + 3.
// CHECK-LABEL: func.func @cat_last
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C2]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK: scf.index_switch %[[BX]]
// CHECK: case 0 {
// CHECK: vector.load %arg0[%{{.*}}, %{{.*}}] : memref<4x3xf32>, vector<8xf32>
// CHECK: case 1 {
// CHECK: %[[J3:.*]] = arith.addi %[[J:.*]], %c3
// CHECK: %[[V:.*]] = vector.load %arg1[%{{.*}}, %[[J]]] : memref<4x20xf32>, vector<8xf32>
// CHECK: vector.store %[[V]], %arg2[%{{.*}}, %[[J3]]] : memref<4x23xf32>, vector<8xf32>
// CHECK: memref.load %arg1
// CHECK: default {
// CHECK-NOT: arith.remsi
func.func @cat_last(%x: memref<4x3xf32>, %y: memref<4x20xf32>, %c: memref<4x23xf32>) {
  %c3 = arith.constant 3 : index
  kf.kernel "pointwise_cat_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1 mod 3)>, affine_map<(d0, d1) -> (d0, (d1 - 3) mod 20)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : memref<4x3xf32>, memref<4x20xf32>) outs(%c : memref<4x23xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %i = linalg.index 1 : index
      %in = arith.cmpi ult, %i, %c3 : index
      %v = arith.select %in, %a, %b : f32
      linalg.yield %v : f32
    }
  }
  return
}

// -----

// Refused: the body computes more than the pick (an exp fused into the
// cat): the flat mapping, every input read through its modulo map.
// CHECK-LABEL: func.func @cat_exp
// CHECK: gpu.launch
// CHECK-NOT: scf.index_switch
// CHECK: arith.remsi
func.func @cat_exp(%x: memref<4x3xf32>, %y: memref<4x20xf32>, %c: memref<4x23xf32>) {
  %c3 = arith.constant 3 : index
  kf.kernel "pointwise_cat_exp_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1 mod 3)>, affine_map<(d0, d1) -> (d0, (d1 - 3) mod 20)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : memref<4x3xf32>, memref<4x20xf32>) outs(%c : memref<4x23xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %i = linalg.index 1 : index
      %in = arith.cmpi ult, %i, %c3 : index
      %v = arith.select %in, %a, %b : f32
      %e = math.exp %v : f32
      linalg.yield %e : f32
    }
  }
  return
}

// -----

// Refused: the second input is read at j - 2, not j - 3 (its range starts
// at 3): not a cat, left to the flat mapping.
// CHECK-LABEL: func.func @not_a_cat
// CHECK: gpu.launch
// CHECK-NOT: scf.index_switch
func.func @not_a_cat(%x: memref<4x3xf32>, %y: memref<4x21xf32>, %c: memref<4x23xf32>) {
  %c3 = arith.constant 3 : index
  kf.kernel "pointwise_cat_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1 mod 3)>, affine_map<(d0, d1) -> (d0, (d1 - 2) mod 21)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : memref<4x3xf32>, memref<4x21xf32>) outs(%c : memref<4x23xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %i = linalg.index 1 : index
      %in = arith.cmpi ult, %i, %c3 : index
      %v = arith.select %in, %a, %b : f32
      linalg.yield %v : f32
    }
  }
  return
}

// -----

// A pad (two cats of zeros fused, their constants folded into the body):
// each row of the result zeros, or zeros, the input's row and zeros; no
// modulo. The input's row is read at (c - 1) for result rows 1 .. 8.
// CHECK-LABEL: func.func @pad
// CHECK: gpu.launch
// CHECK: %[[H:.*]] = arith.subi %{{.*}}, %c1
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[H]], %c8
// CHECK: scf.if %[[IN]] {
// CHECK: vector.load %arg0[%{{.*}}, %[[H]], %{{.*}}] : memref<2x8x8xf32>, vector<8xf32>
// CHECK: } else {
// CHECK: vector.store %{{.*}}, %arg1[%{{.*}}, %{{.*}}, %c0] : memref<2x10x10xf32>, vector<8xf32>
// CHECK-NOT: arith.remsi
// CHECK: gpu.terminator
func.func @pad(%x: memref<2x8x8xf32>, %y: memref<2x10x10xf32>) {
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0.0 : f32
  kf.kernel "pointwise_cat_cat_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, (d1 - 1) mod 8, (d2 - 1) mod 8)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : memref<2x8x8xf32>) outs(%y : memref<2x10x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = linalg.index 1 : index
      %1 = arith.cmpi ult, %0, %c9 : index
      %2 = arith.select %1, %in, %zero : f32
      %3 = arith.cmpi ult, %0, %c1 : index
      %4 = arith.select %3, %zero, %2 : f32
      %5 = linalg.index 2 : index
      %6 = arith.cmpi ult, %5, %c9 : index
      %7 = arith.select %6, %4, %zero : f32
      %8 = arith.cmpi ult, %5, %c1 : index
      %9 = arith.select %8, %zero, %7 : f32
      linalg.yield %9 : f32
    }
  }
  return
}

// -----

// A pad whose input is permuted (ConvNeXt: an NHWC result padded into
// NCHW): the input's dims read the result's in another order; the rows of
// the result run along the input's H, so its row is copied element by
// element at (n, h - 1, w, c), between vector fills. Before, a flat kernel
// with a modulo a dim (ConvNeXt's: 191 us, now 7.5).
// CHECK-LABEL: func.func @pad_permuted
// CHECK: gpu.launch
// CHECK: %[[H:.*]] = arith.subi %{{.*}}, %c1
// CHECK: scf.if
// CHECK: scf.for %[[W:.*]] = %c0 to %c8 step %c1 {
// CHECK: %[[V:.*]] = memref.load %arg0[%{{.*}}, %[[H]], %[[W]], %{{.*}}] : memref<2x8x8x4xf32>
// CHECK: memref.store %[[V]], %arg1
// CHECK: } else {
// CHECK-NOT: arith.remsi
// CHECK: gpu.terminator
func.func @pad_permuted(%x: memref<2x8x8x4xf32>, %y: memref<2x4x10x10xf32>) {
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0.0 : f32
  kf.kernel "pointwise_cat_cat_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, (d2 - 1) mod 8, (d3 - 1) mod 8, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<2x8x8x4xf32>) outs(%y : memref<2x4x10x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = linalg.index 2 : index
      %1 = arith.cmpi ult, %0, %c9 : index
      %2 = arith.select %1, %in, %zero : f32
      %3 = arith.cmpi ult, %0, %c1 : index
      %4 = arith.select %3, %zero, %2 : f32
      %5 = linalg.index 3 : index
      %6 = arith.cmpi ult, %5, %c9 : index
      %7 = arith.select %6, %4, %zero : f32
      %8 = arith.cmpi ult, %5, %c1 : index
      %9 = arith.select %8, %zero, %7 : f32
      linalg.yield %9 : f32
    }
  }
  return
}

// -----

// A pad of a computed value (ResNet's batch norm and ReLU before a pad,
// fused): the rows inside the box run the body on vectors along the row,
// the input read from the first lane's (c - 1) mod 8 (inside, the lanes do
// not wrap), the rest of the row the constant. Before: a flat kernel, each
// element through modulo maps (ResNet-18's: 1.14 ms; now 0.07).
// CHECK-LABEL: func.func @pad_computed
// CHECK: gpu.launch
// CHECK: scf.if
// CHECK: scf.for %[[C:.*]] = %c1 to %c9 step %c8 {
// CHECK: %[[V:.*]] = vector.load %arg0[{{.*}}] : memref<2x8x8xf32>, vector<8xf32>
// CHECK: %[[S:.*]] = memref.load %arg1[%{{.*}}] : memref<2xf32>
// CHECK: vector.broadcast %[[S]] : f32 to vector<8xf32>
// CHECK: arith.mulf %[[V]], %{{.*}} : vector<8xf32>
// CHECK: arith.maximumf {{.*}} : vector<8xf32>
// CHECK: vector.store %{{.*}}, %arg2[%{{.*}}, %{{.*}}, %[[C]]] : memref<2x10x10xf32>, vector<8xf32>
// CHECK: } else {
// CHECK: gpu.terminator
func.func @pad_computed(%x: memref<2x8x8xf32>, %scale: memref<2xf32>, %y: memref<2x10x10xf32>) {
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0.0 : f32
  kf.kernel "pointwise_mul_relu_cat_cat_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, (d1 - 1) mod 8, (d2 - 1) mod 8)>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %scale : memref<2x8x8xf32>, memref<2xf32>) outs(%y : memref<2x10x10xf32>) {
    ^bb0(%in: f32, %s: f32, %out: f32):
      %m = arith.mulf %in, %s : f32
      %r = arith.maximumf %m, %zero : f32
      %0 = linalg.index 1 : index
      %1 = arith.cmpi ult, %0, %c9 : index
      %2 = arith.select %1, %r, %zero : f32
      %3 = arith.cmpi ult, %0, %c1 : index
      %4 = arith.select %3, %zero, %2 : f32
      %5 = linalg.index 2 : index
      %6 = arith.cmpi ult, %5, %c9 : index
      %7 = arith.select %6, %4, %zero : f32
      %8 = arith.cmpi ult, %5, %c1 : index
      %9 = arith.select %8, %zero, %7 : f32
      linalg.yield %9 : f32
    }
  }
  return
}

// -----

// Refused: the value inside depends on an index (x + i, no value the same
// at every point inside): not a pad; the flat kernel stays.
// CHECK-LABEL: func.func @pad_index_inside
// CHECK: gpu.launch
// CHECK-NOT: scf.if
// CHECK: gpu.terminator
func.func @pad_index_inside(%x: memref<8xf32>, %y: memref<10xf32>) {
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0.0 : f32
  kf.kernel "pointwise_cat_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0) -> ((d0 - 1) mod 8)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<8xf32>) outs(%y : memref<10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = linalg.index 0 : index
      %i = arith.index_cast %0 : index to i32
      %f = arith.sitofp %i : i32 to f32
      %v = arith.addf %in, %f : f32
      %1 = arith.cmpi ult, %0, %c9 : index
      %2 = arith.select %1, %v, %zero : f32
      %3 = arith.cmpi ult, %0, %c1 : index
      %4 = arith.select %3, %zero, %2 : f32
      linalg.yield %4 : f32
    }
  }
  return
}

// -----

// Refused: two values inside the box (x + 1 on its first half, x * 2 on
// the rest): no one value inside; the flat kernel stays.
// CHECK-LABEL: func.func @pad_two_inside
// CHECK: gpu.launch
// CHECK-NOT: scf.if
// CHECK: gpu.terminator
func.func @pad_two_inside(%x: memref<8xf32>, %y: memref<10xf32>) {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  kf.kernel "pointwise_cat_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0) -> ((d0 - 1) mod 8)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<8xf32>) outs(%y : memref<10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = arith.addf %in, %one : f32
      %b = arith.mulf %in, %two : f32
      %0 = linalg.index 0 : index
      %h = arith.cmpi ult, %0, %c5 : index
      %v = arith.select %h, %a, %b : f32
      %1 = arith.cmpi ult, %0, %c9 : index
      %2 = arith.select %1, %v, %zero : f32
      %3 = arith.cmpi ult, %0, %c1 : index
      %4 = arith.select %3, %zero, %2 : f32
      linalg.yield %4 : f32
    }
  }
  return
}

// -----

// Refused: an input dim that reads two of the result's (x[n, h + w]) is no
// permutation; the kernel stays a flat one (its modulo maps).
// CHECK-LABEL: func.func @pad_mixed
// CHECK: gpu.launch
// CHECK-NOT: scf.if
// CHECK: gpu.terminator
func.func @pad_mixed(%x: memref<2x8xf32>, %y: memref<2x10x10xf32>) {
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0.0 : f32
  kf.kernel "pointwise_cat_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, (d1 + d2 - 1) mod 8)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : memref<2x8xf32>) outs(%y : memref<2x10x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = linalg.index 1 : index
      %1 = arith.cmpi ult, %0, %c9 : index
      %2 = arith.select %1, %in, %zero : f32
      %3 = arith.cmpi ult, %0, %c1 : index
      %4 = arith.select %3, %zero, %2 : f32
      linalg.yield %4 : f32
    }
  }
  return
}

// -----

// Refused: zeros below and ones above (two constants) is no pad of one
// value: the flat mapping.
// CHECK-LABEL: func.func @two_values
// CHECK: gpu.launch
// CHECK-NOT: scf.if
// CHECK: arith.remsi
func.func @two_values(%x: memref<8xf32>, %y: memref<10xf32>) {
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  kf.kernel "pointwise_cat_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0) -> ((d0 - 1) mod 8)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<8xf32>) outs(%y : memref<10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = linalg.index 0 : index
      %1 = arith.cmpi ult, %0, %c9 : index
      %2 = arith.select %1, %in, %one : f32
      %3 = arith.cmpi ult, %0, %c1 : index
      %4 = arith.select %3, %zero, %2 : f32
      linalg.yield %4 : f32
    }
  }
  return
}

// -----

// Refused: the body also picks the constant inside the box (rows 3 and 4
// of 1 .. 8, a hole): no pad, though its edges look like one.
// CHECK-LABEL: func.func @hole
// CHECK: gpu.launch
// CHECK-NOT: scf.if
// CHECK: arith.remsi
func.func @hole(%x: memref<8xf32>, %y: memref<10xf32>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0.0 : f32
  kf.kernel "pointwise_cat_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0) -> ((d0 - 1) mod 8)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<8xf32>) outs(%y : memref<10xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = linalg.index 0 : index
      %1 = arith.cmpi ult, %0, %c9 : index
      %2 = arith.select %1, %in, %zero : f32
      %3 = arith.cmpi ult, %0, %c5 : index
      %4 = arith.select %3, %zero, %2 : f32
      %5 = arith.cmpi ult, %0, %c3 : index
      %6 = arith.select %5, %2, %4 : f32
      %7 = arith.cmpi ult, %0, %c1 : index
      %8 = arith.select %7, %zero, %6 : f32
      linalg.yield %8 : f32
    }
  }
  return
}
