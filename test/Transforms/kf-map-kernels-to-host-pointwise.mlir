// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-host | FileCheck %s

// The host runtime's flat mapping (passes/host/mappings/HostPointwise.cpp): a block
// is one thread computing 16384 consecutive elements, whole vectors of 8
// f32 lanes (one AVX2 register) with vector arithmetic, then the elements
// left one by one. The value the first op computes reaches the second in a
// register; a constant of the body is broadcast.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @add_relu
// CHECK-SAME: (%[[X:.*]]: memref<?xf32>, %[[Y:.*]]: memref<?xf32>, %[[T:.*]]: memref<?xf32>, %[[Z:.*]]: memref<?xf32>)
// CHECK: arith.muli
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[CHUNK:.*]] = arith.constant 16384 : index
// CHECK: %[[GRID0:.*]] = arith.ceildivui %{{.*}}, %[[CHUNK]] : index
// CHECK: %[[GRID:.*]] = arith.maxui %[[GRID0]], %[[ONE]] : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[GRID]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]])
// CHECK: %[[START:.*]] = arith.muli %[[BX]], %[[CHUNK]] : index
// CHECK: %[[END:.*]] = arith.minui
// CHECK: %[[TAIL:.*]] = arith.addi %[[START]], %{{.*}} : index
// CHECK: scf.for %[[I:.*]] = %[[START]] to %[[TAIL]] step %{{.*}} {
// CHECK: %[[XV:.*]] = vector.load %[[X]][%[[I]]] : memref<?xf32>, vector<8xf32>
// CHECK: %[[YV:.*]] = vector.load %[[Y]][%[[I]]] : memref<?xf32>, vector<8xf32>
// CHECK: %[[S:.*]] = arith.addf %[[XV]], %[[YV]] : vector<8xf32>
// CHECK: vector.store %[[S]], %[[T]][%[[I]]]
// CHECK-NOT: vector.load
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[ZV:.*]] = vector.broadcast %[[ZERO]] : f32 to vector<8xf32>
// CHECK: %[[NEG:.*]] = arith.cmpf olt, %[[S]], %[[ZV]] : vector<8xf32>
// CHECK: %[[R:.*]] = arith.select %[[NEG]], %{{.*}}, %[[S]] : vector<8xi1>, vector<8xf32>
// CHECK: vector.store %[[R]], %[[Z]][%[[I]]]
// CHECK: }
// CHECK: scf.for %[[J:.*]] = %[[TAIL]] to %[[END]] step %[[ONE]] {
// CHECK: memref.load %[[X]][%[[J]]]
// CHECK: arith.addf %{{.*}} : f32
// CHECK: memref.store
// CHECK: arith.select %{{.*}} : f32
// CHECK: gpu.terminator
func.func @add_relu(%x: memref<?xf32>, %y: memref<?xf32>, %t: memref<?xf32>, %z: memref<?xf32>) {
  kf.kernel "pointwise_add_relu_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y : memref<?xf32>, memref<?xf32>) outs(%t : memref<?xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%t : memref<?xf32>) outs(%z : memref<?xf32>) {
    ^bb0(%a: f32, %o: f32):
      %zero = arith.constant 0.0 : f32
      %neg = arith.cmpf olt, %a, %zero : f32
      %r = arith.select %neg, %zero, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// The lanes fill a 256-bit register with the widest element: 4 for f64
// (and an f32 operand then gets 4 lanes too); a 2-D buffer is read through
// a 1-D view of the same memory.
// CHECK-LABEL: func.func @widen
// CHECK: memref.collapse_shape
// CHECK: scf.for
// CHECK: vector.load %{{.*}} : memref<32xf32>, vector<4xf32>
// CHECK: arith.extf %{{.*}} : vector<4xf32> to vector<4xf64>
// CHECK: vector.store %{{.*}} : memref<32xf64>, vector<4xf64>
func.func @widen(%x: memref<4x8xf32>, %y: memref<4x8xf64>) {
  kf.kernel "pointwise_to_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf64>) {
    ^bb0(%a: f32, %o: f64):
      %e = arith.extf %a : f32 to f64
      linalg.yield %e : f64
    }
  }
  return
}

// -----

// A body holding a math function that kf-host-math writes out as a long
// chain of dependent ops (erf here: GELU) takes two registers a step
// (vector<16xf32>, which LLVM splits op by op, so that two chains
// interleave: interleavedLanesFor); the tail stays scalar. A cheap body
// (add_relu above) keeps one register.
// CHECK-LABEL: func.func @gelu
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c16{{.*}} {
// CHECK: vector.load %{{.*}}[%[[I]]] : memref<?xf32>, vector<16xf32>
// CHECK: math.erf %{{.*}} : vector<16xf32>
// CHECK: vector.store %{{.*}} : memref<?xf32>, vector<16xf32>
// CHECK: math.erf %{{.*}} : f32
func.func @gelu(%x: memref<?xf32>, %y: memref<?xf32>) {
  kf.kernel "pointwise_gelu_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) {
    ^bb0(%a: f32, %o: f32):
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %s = arith.constant 0.707106769 : f32
      %z = arith.mulf %a, %s : f32
      %e = math.erf %z : f32
      %p = arith.addf %e, %one : f32
      %h = arith.mulf %a, %half : f32
      %r = arith.mulf %h, %p : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A block does about as much work as a cheap kernel's 16384 elements: a
// body of 31 (16 reads and 15 adds, a 16-wide window sum) gets
// 16384 * 16 / 31 = 8456 elements, 8448 in whole 64s (ConvNeXt's 7 x 7
// depthwise convolution was one block of 16K elements, 106 us that a
// second core could not share).
// CHECK-LABEL: func.func @window_sum
// CHECK: %[[CHUNK:.*]] = arith.constant 8448 : index
// CHECK: arith.divui %[[CHUNK]]
// CHECK: gpu.launch
// CHECK: vector.load %{{.*}} : memref<?x24xf32>, vector<8xf32>
func.func @window_sum(%x: memref<?x24xf32>, %y: memref<?x8xf32>) {
  kf.kernel "pointwise_add_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1 + 1)>, affine_map<(d0, d1) -> (d0, d1 + 2)>, affine_map<(d0, d1) -> (d0, d1 + 3)>, affine_map<(d0, d1) -> (d0, d1 + 4)>, affine_map<(d0, d1) -> (d0, d1 + 5)>, affine_map<(d0, d1) -> (d0, d1 + 6)>, affine_map<(d0, d1) -> (d0, d1 + 7)>, affine_map<(d0, d1) -> (d0, d1 + 8)>, affine_map<(d0, d1) -> (d0, d1 + 9)>, affine_map<(d0, d1) -> (d0, d1 + 10)>, affine_map<(d0, d1) -> (d0, d1 + 11)>, affine_map<(d0, d1) -> (d0, d1 + 12)>, affine_map<(d0, d1) -> (d0, d1 + 13)>, affine_map<(d0, d1) -> (d0, d1 + 14)>, affine_map<(d0, d1) -> (d0, d1 + 15)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x : memref<?x24xf32>, memref<?x24xf32>, memref<?x24xf32>, memref<?x24xf32>, memref<?x24xf32>, memref<?x24xf32>, memref<?x24xf32>, memref<?x24xf32>, memref<?x24xf32>, memref<?x24xf32>, memref<?x24xf32>, memref<?x24xf32>, memref<?x24xf32>, memref<?x24xf32>, memref<?x24xf32>, memref<?x24xf32>) outs(%y : memref<?x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %a5: f32, %a6: f32, %a7: f32, %a8: f32, %a9: f32, %a10: f32, %a11: f32, %a12: f32, %a13: f32, %a14: f32, %a15: f32, %o: f32):
      %s1 = arith.addf %a0, %a1 : f32
      %s2 = arith.addf %s1, %a2 : f32
      %s3 = arith.addf %s2, %a3 : f32
      %s4 = arith.addf %s3, %a4 : f32
      %s5 = arith.addf %s4, %a5 : f32
      %s6 = arith.addf %s5, %a6 : f32
      %s7 = arith.addf %s6, %a7 : f32
      %s8 = arith.addf %s7, %a8 : f32
      %s9 = arith.addf %s8, %a9 : f32
      %s10 = arith.addf %s9, %a10 : f32
      %s11 = arith.addf %s10, %a11 : f32
      %s12 = arith.addf %s11, %a12 : f32
      %s13 = arith.addf %s12, %a13 : f32
      %s14 = arith.addf %s13, %a14 : f32
      %s15 = arith.addf %s14, %a15 : f32
      linalg.yield %s15 : f32
    }
  }
  return
}

// -----

// A broadcast runs as rows of vectors: blocks of whole rows (and pieces
// of rows longer than a block), the bias over the last dim read as a
// vector, the value of each row (read at (d0)) a scalar, broadcast where
// it meets a vector; the loop indices come from the row, not from a
// division per element.
// CHECK-LABEL: func.func @bias_add
// CHECK: gpu.launch
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[XV:.*]] = vector.load %{{.*}}[%[[R]], %[[J]]] : memref<?x8xf32>, vector<8xf32>
// CHECK: %[[BV:.*]] = vector.load %{{.*}}[%[[J]]] : memref<8xf32>, vector<8xf32>
// CHECK: %[[S:.*]] = memref.load %{{.*}}[%[[R]]] : memref<?xf32>
// CHECK: %[[A:.*]] = arith.addf %[[XV]], %[[BV]] : vector<8xf32>
// CHECK: %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<8xf32>
// CHECK: %[[M:.*]] = arith.mulf %[[A]], %[[SV]] : vector<8xf32>
// CHECK: vector.store %[[M]], %{{.*}}[%[[R]], %[[J]]]
// CHECK: }
// CHECK: scf.for
// CHECK-NOT: arith.divui
// CHECK: memref.load %{{.*}}[%[[R]], %{{.*}}] : memref<?x8xf32>
// CHECK: gpu.terminator
func.func @bias_add(%x: memref<?x8xf32>, %b: memref<8xf32>, %s: memref<?xf32>, %y: memref<?x8xf32>) {
  kf.kernel "pointwise_add_mul_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b, %s : memref<?x8xf32>, memref<8xf32>, memref<?xf32>) outs(%y : memref<?x8xf32>) {
    ^bb0(%a: f32, %c: f32, %k: f32, %o: f32):
      %t = arith.addf %a, %c : f32
      %m = arith.mulf %t, %k : f32
      linalg.yield %m : f32
    }
  }
  return
}

// -----

// A body op with no vector form (a call): vector loads and stores, the
// call lane by lane.
func.func private @f(f32) -> f32
// CHECK-LABEL: func.func @call
// CHECK: vector.load %{{.*}} : memref<?xf32>, vector<8xf32>
// CHECK-COUNT-8: func.call @f
// CHECK: vector.from_elements
// CHECK: vector.store
func.func @call(%x: memref<?xf32>, %y: memref<?xf32>) {
  kf.kernel "pointwise_f_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = func.call @f(%a) : (f32) -> f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A transpose: a block per 32 x 32 tile of the last two loops, the
// elements at their loop indices (no division per element); a block of an
// empty grid runs nothing.
// CHECK-LABEL: func.func @transpose
// CHECK-DAG: %[[TILE:.*]] = arith.constant 32 : index
// CHECK: arith.maxui %[[TILES:.*]], %{{.*}} : index
// CHECK: gpu.launch
// CHECK: %[[ANY:.*]] = arith.cmpi ult, %{{.*}}, %[[TILES]] : index
// CHECK: scf.if %[[ANY]] {
// CHECK: scf.for %[[I:.*]] =
// CHECK: scf.for %[[J:.*]] =
// CHECK-NOT: arith.divui
// CHECK: %[[V:.*]] = memref.load %{{.*}}[%[[J]], %[[I]]] : memref<?x?xf32>
// CHECK: memref.store %[[V]], %{{.*}}[%[[I]], %[[J]]] : memref<?x?xf32>
func.func @transpose(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  kf.kernel "transpose_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<?x?xf32>) outs(%y : memref<?x?xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    }
  }
  return
}

// -----

// A full tile of f32 swapping the last two loops: 8 x 8 blocks, each 8
// vector loads along the input's rows, one vector.transpose, then the
// kernel's ops on each transposed row (here a bias over the last dim) and
// a vector store along the output's rows; a tile cut by an edge element by
// element.
// CHECK-LABEL: func.func @transpose_bias
// CHECK: gpu.launch
// CHECK: scf.if %{{.*}} {
// CHECK: scf.for
// CHECK: scf.for
// CHECK-COUNT-8: vector.load %{{.*}} : memref<?x?xf32>, vector<8xf32>
// CHECK: %[[T:.*]] = vector.transpose %{{.*}}, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK: %[[ROW:.*]] = vector.extract %[[T]][0] : vector<8xf32> from vector<8x8xf32>
// CHECK: %[[B:.*]] = vector.load %{{.*}} : memref<?xf32>, vector<8xf32>
// CHECK: %[[S:.*]] = arith.addf %[[ROW]], %[[B]] : vector<8xf32>
// CHECK: vector.store %[[S]]
// CHECK: } else {
// CHECK: memref.load
func.func @transpose_bias(%x: memref<?x?xf32>, %b: memref<?xf32>, %y: memref<?x?xf32>) {
  kf.kernel "pointwise_add_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : memref<?x?xf32>, memref<?xf32>) outs(%y : memref<?x?xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
    }
  }
  return
}
