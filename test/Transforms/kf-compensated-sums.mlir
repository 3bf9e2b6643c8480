// RUN: kfuse-opt %s -split-input-file --kf-compensated-sums | FileCheck %s

// A float sum on buffers gets a second output, the sum's lost low part
// (zeroed first, freed after), and a compensated step as its body.
// CHECK-LABEL: func.func @row_sum
// CHECK-SAME: (%[[X:.*]]: memref<4x?xf32>, %[[S:.*]]: memref<4xf32>)
// CHECK: %[[LOST:.*]] = memref.alloc() : memref<4xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[LOST]] : memref<4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[X]] : memref<4x?xf32>) outs(%[[S]], %[[LOST]] : memref<4xf32>, memref<4xf32>) attrs = {kf.op = "sum"}
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[SUM:.*]]: f32, %[[C:.*]]: f32):
// CHECK-NEXT: %[[E:.*]] = math.exp %[[IN]] : f32
// CHECK-NEXT: %[[Y:.*]] = arith.subf %[[E]], %[[C]] : f32
// CHECK-NEXT: %[[T:.*]] = arith.addf %[[SUM]], %[[Y]] : f32
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[T]], %[[SUM]] : f32
// CHECK-NEXT: %[[L:.*]] = arith.subf %[[D]], %[[Y]] : f32
// CHECK: %[[TT:.*]] = arith.subf %[[T]], %[[T]] : f32
// CHECK-NEXT: %[[FINITE:.*]] = arith.cmpf oeq, %[[TT]], %{{.*}} : f32
// CHECK-NEXT: %[[KEEP:.*]] = arith.select %[[FINITE]], %[[L]], %{{.*}} : f32
// CHECK-NEXT: linalg.yield %[[T]], %[[KEEP]] : f32, f32
// CHECK: memref.dealloc %[[LOST]] : memref<4xf32>
func.func @row_sum(%x: memref<4x?xf32>, %s: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x?xf32>) outs(%s : memref<4xf32>) attrs = {kf.op = "sum"} {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    %0 = arith.addf %e, %out : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A dynamic output: the lost part has its sizes.
// CHECK-LABEL: func.func @dynamic_out
// CHECK: %[[D:.*]] = memref.dim %{{.*}}, %c0 : memref<?xf64>
// CHECK: memref.alloc(%[[D]]) : memref<?xf64>
func.func @dynamic_out(%x: memref<?x8xf64>, %s: memref<?xf64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x8xf64>) outs(%s : memref<?xf64>) {
  ^bb0(%in: f64, %out: f64):
    %0 = arith.addf %out, %in : f64
    linalg.yield %0 : f64
  }
  return
}

// -----

// Left alone: max (exact in any order), integer sums (exact), pointwise ops,
// and reductions on tensors (the pass runs after bufferization).
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: memref.alloc
// CHECK-NOT: outs(%{{.*}}, %{{.*}} :
// CHECK: return
func.func @untouched(%x: memref<4x8xf32>, %m: memref<4xf32>, %i: memref<4x8xi32>, %n: memref<4xi32>,
                     %t: tensor<4x8xf32>, %ts: tensor<4xf32>) -> tensor<4xf32> {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%m : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %out, %in : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%i : memref<4x8xi32>) outs(%n : memref<4xi32>) {
  ^bb0(%in: i32, %out: i32):
    %0 = arith.addi %out, %in : i32
    linalg.yield %0 : i32
  }
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%t : tensor<4x8xf32>) outs(%ts : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
