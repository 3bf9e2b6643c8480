// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-host --cse | FileCheck %s
// RUN: %run-check %S/Inputs/depthwise-windows.mlir --input "arg0=f32[2x4x6x11]" --input "arg1=f32[4x3x3]" \
// RUN:   --expect "(lambda x, w: sum(np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))[:, :, dy:dy + 6, dx:dx + 11] * w[:, dy, dx][:, None, None] for dy in range(3) for dx in range(3)))(arg0, arg1)" \
// RUN:   -- --entry=depthwise --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=NUMPY
// NUMPY: check against the CPU, unfused: {{.*}}: ok
// NUMPY: run_check: result0 float32[2, 4, 6, 11] matches numpy
// RUN: %run-check %S/Inputs/depthwise-windows.mlir --input "arg0=f32[2x4x6x11]" --input "arg1=f32[4x3x3]" \
// RUN:   --expect "(lambda x, w: sum(np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))[:, :, dy:dy + 6, dx:dx + 11] * w[:, dy, dx][:, None, None] for dy in range(3) for dx in range(3)).transpose(0, 2, 3, 1))(arg0, arg1)" \
// RUN:   -- --entry=depthwise_nhwc --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=NHWC
// NHWC: check against the CPU, unfused: {{.*}}: ok
// NHWC: run_check: result0 float32[2, 6, 11, 4] matches numpy
// RUN: %run-check %S/Inputs/class-token-cat.mlir --input "arg0=f32[1x1x20]" --input "arg1=f32[3x4x20]" \
// RUN:   --input "arg2=f32[1x5x20]" --expect "np.concatenate([np.broadcast_to(arg0, (3, 1, 20)), arg1], 1) + arg2" \
// RUN:   -- --entry=class_token --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=CAT
// CAT: check against the CPU, unfused: {{.*}}: ok
// CAT: run_check: result0 float32[3, 5, 20] matches numpy
// RUN: %run-check %S/Inputs/strided-windows.mlir --input "arg0=f32[2x3x9x41]" \
// RUN:   --expect "(lambda x: np.max([x[:, :, dy:dy + 7:2, dx:dx + 37:2] for dy in range(3) for dx in range(3)], 0))(arg0)" \
// RUN:   -- --entry=max_pool --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=POOL
// POOL: check against the CPU, unfused: {{.*}}: ok
// POOL: run_check: result0 float32[2, 3, 4, 19] matches numpy

// The host's rows of vectors (HostPointwise.cpp) over windows: operands
// that are views contiguous along their last dim (memref.subview of a
// padded input: a slice) and maps that shift loops by constants (a
// window read in place, x[h, w + 1]) are read as vectors along the row
// from the shifted first lane. Before, any view or shift sent the kernel
// element by element (a 7 x 7 depthwise convolution of ConvNeXt: 386 us,
// 23 ns an output). The numbers of the depthwise convolution above (W = 11:
// a vector and a tail of 3 a row) are checked against numpy.

// Two windows of one padded row, w and w + 1 (a view and a shifted map), times a
// per-channel tap broadcast along the row.
// CHECK-LABEL: func.func @windows
// CHECK: gpu.launch
// CHECK: scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step %c8
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}, %[[W]]] : memref<4x6x11xf32, strided<[78, 13, 1], offset: 1>>, vector<8xf32>
// CHECK: %[[W1:.*]] = arith.addi %[[W]], %c1
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}, %[[W1]]] : memref<4x6x12xf32, strided<[78, 13, 1], offset: 1>>, vector<8xf32>
// CHECK: %[[T:.*]] = memref.load %arg1[%{{.*}}] : memref<4xf32>
// CHECK: vector.broadcast %[[T]] : f32 to vector<8xf32>
// CHECK: arith.mulf %{{.*}} : vector<8xf32>
// CHECK: arith.addf %{{.*}} : vector<8xf32>
// CHECK: vector.store %{{.*}}, %arg2[{{.*}}] : memref<4x6x11xf32>, vector<8xf32>
func.func @windows(%p: memref<4x6x13xf32>, %tap: memref<4xf32>, %y: memref<4x6x11xf32>) {
  %v = memref.subview %p[0, 0, 1] [4, 6, 11] [1, 1, 1] : memref<4x6x13xf32> to memref<4x6x11xf32, strided<[78, 13, 1], offset: 1>>
  %u = memref.subview %p[0, 0, 1] [4, 6, 12] [1, 1, 1] : memref<4x6x13xf32> to memref<4x6x12xf32, strided<[78, 13, 1], offset: 1>>
  kf.kernel "pointwise_slice_mul_add_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2 + 1)>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v, %u, %tap : memref<4x6x11xf32, strided<[78, 13, 1], offset: 1>>, memref<4x6x12xf32, strided<[78, 13, 1], offset: 1>>, memref<4xf32>) outs(%y : memref<4x6x11xf32>) {
    ^bb0(%a: f32, %b: f32, %t: f32, %o: f32):
      %m = arith.mulf %a, %t : f32
      %s = arith.addf %m, %b : f32
      linalg.yield %s : f32
    }
  }
  return
}

// -----

// Refused: a window of stride 2 along the row (a strided slice) is no
// vector of consecutive elements; the kernel stays element by element.
// CHECK-LABEL: func.func @strided_window
// CHECK: gpu.launch
// CHECK-NOT: vector.load
// CHECK: memref.load
// CHECK: gpu.terminator
func.func @strided_window(%p: memref<4x20xf32>, %y: memref<4x10xf32>) {
  %v = memref.subview %p[0, 0] [4, 10] [1, 2] : memref<4x20xf32> to memref<4x10xf32, strided<[20, 2]>>
  kf.kernel "pointwise_slice_neg_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : memref<4x10xf32, strided<[20, 2]>>) outs(%y : memref<4x10xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n = arith.negf %a : f32
      linalg.yield %n : f32
    }
  }
  return
}

// -----

// Rows along another loop: x[w + 1, h] is read along h (its last dim) and
// y[h, w] written along its first: rows of y's columns, each a vector
// loaded along p's rows and stored lane by lane (ConvNeXt's depthwise
// convolution reads NCHW windows along W and writes NHWC; along the last
// loop every window was a strided element, 382 us; rows along W, 124).
// CHECK-LABEL: func.func @shifted_column
// CHECK: gpu.launch
// CHECK: scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step %c8
// CHECK: %[[V:.*]] = vector.load %arg0[%{{.*}}, %[[H]]] : memref<9x8xf32>, vector<8xf32>
// CHECK: %[[N:.*]] = arith.negf %[[V]] : vector<8xf32>
// CHECK: %[[E0:.*]] = vector.extract %[[N]][0]
// CHECK: memref.store %[[E0]], %arg1[%[[H]], %[[ROW:.*]]] : memref<8x8xf32>
// CHECK: %[[H1:.*]] = arith.addi %[[H]], %c1
// CHECK: memref.store %{{.*}}, %arg1[%[[H1]], %[[ROW]]] : memref<8x8xf32>
// CHECK-COUNT-6: memref.store
// CHECK: scf.for
// CHECK: memref.load
// CHECK: gpu.terminator
func.func @shifted_column(%p: memref<9x8xf32>, %y: memref<8x8xf32>) {
  kf.kernel "pointwise_slice_neg_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1 + 1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p : memref<9x8xf32>) outs(%y : memref<8x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n = arith.negf %a : f32
      linalg.yield %n : f32
    }
  }
  return
}

// -----

// Refused: two inputs that want different rows, x[h, w + 1] along w and
// z[w + 1, h] along h (shifted: not the transpose mapping's), leave the
// kernel element by element.
// CHECK-LABEL: func.func @crossed
// CHECK: gpu.launch
// CHECK-NOT: vector.load
// CHECK: memref.load
// CHECK: gpu.terminator
func.func @crossed(%x: memref<8x9xf32>, %z: memref<9x8xf32>, %y: memref<8x8xf32>) {
  kf.kernel "pointwise_slice_add_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1 + 1)>, affine_map<(d0, d1) -> (d1 + 1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %z : memref<8x9xf32>, memref<9x8xf32>) outs(%y : memref<8x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  }
  return
}

// -----

// A map whose other results are any function of the row's loops (the
// cat's patches read at (t - 1) mod 4: ViT's class token, Inputs/class-token-cat.mlir,
// checked against numpy above) still reads along the row as vectors: the
// row's index does not depend on the lane (LLVM hoists it out of the
// row's loop). Before, the kernel ran element by element (ViT-Tiny's: 156
// us; now 5.4).
// CHECK-LABEL: func.func @class_token
// CHECK: gpu.launch
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %c8
// CHECK: vector.load %arg0[%c0, %[[C]]] : memref<1x20xf32>, vector<8xf32>
// CHECK: arith.remsi %{{.*}}, %c4 : index
// CHECK: %[[T:.*]] = arith.select %{{.*}} : index
// CHECK: vector.load %arg1[%{{.*}}, %[[T]], %[[C]]] : memref<3x4x20xf32>, vector<8xf32>
// CHECK: arith.select %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK: vector.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}, %[[C]]] : memref<3x5x20xf32>, vector<8xf32>
func.func @class_token(%cls: memref<1x20xf32>, %p: memref<3x4x20xf32>, %pos: memref<5x20xf32>, %y: memref<3x5x20xf32>) {
  %c1 = arith.constant 1 : index
  kf.kernel "pointwise_broadcast_to_cat_add_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, d2)>, affine_map<(d0, d1, d2) -> (d0, (d1 - 1) mod 4, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cls, %p, %pos : memref<1x20xf32>, memref<3x4x20xf32>, memref<5x20xf32>) outs(%y : memref<3x5x20xf32>) {
    ^bb0(%a: f32, %b: f32, %q: f32, %o: f32):
      %t = linalg.index 1 : index
      %first = arith.cmpi ult, %t, %c1 : index
      %v = arith.select %first, %a, %b : f32
      %r = arith.addf %v, %q : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A window of stride 2 (a max pool's, Inputs/strided-windows.mlir,
// checked against numpy above) is gathered, its lanes two elements
// apart: only the elements the lanes read (a wider load would read past
// the row's last). Before, the kernel ran element by element (ResNet-18's
// max pool: 941 us on one core; now 308).
// CHECK-LABEL: func.func @strided_windows
// CHECK: gpu.launch
// CHECK: scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step %c8
// CHECK: %[[APART:.*]] = arith.constant dense<[0, 2, 4, 6, 8, 10, 12, 14]> : vector<8xindex>
// CHECK: vector.gather %arg0[%{{.*}}, %{{.*}}] [%[[APART]]], %{{.*}}, %{{.*}} : memref<4x41xf32>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK: vector.gather %arg0[%{{.*}}, %{{.*}}] [%[[APART]]]
// CHECK: arith.maximumf %{{.*}} : vector<8xf32>
// CHECK: vector.store %{{.*}}, %arg1[%{{.*}}, %[[W]]] : memref<4x19xf32>, vector<8xf32>
func.func @strided_windows(%x: memref<4x41xf32>, %y: memref<4x19xf32>) {
  kf.kernel "pointwise_maximum_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1 * 2)>, affine_map<(d0, d1) -> (d0, d1 * 2 + 1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %x : memref<4x41xf32>, memref<4x41xf32>) outs(%y : memref<4x19xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.maximumf %a, %b : f32
      linalg.yield %m : f32
    }
  }
  return
}
