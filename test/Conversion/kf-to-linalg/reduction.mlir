// RUN: kfuse-opt %s -split-input-file --kf-to-linalg | FileCheck %s

// A row sum is one linalg.generic with a reduction iterator; the fill that
// starts its accumulator at 0 belongs to that kernel.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @sum_rows
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: outs(%[[F]] : tensor<4xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK: arith.addf %[[ACC]], %[[X]] : f32
func.func @sum_rows(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = kf.sum %x dims [1] : tensor<4x8xf32>
  return %0 : tensor<4xf32>
}

// -----

// keepdim puts the unit dim back with a tensor.expand_shape (no kernel).
// CHECK-LABEL: func.func @max_keepdim
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NINF]] : f32)
// CHECK: linalg.generic
// CHECK: arith.maximumf
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
func.func @max_keepdim(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %0 = kf.max %x dims [-1] keepdim : tensor<4x8xf32>
  return %0 : tensor<4x1xf32>
}

// -----

// min starts at +inf; a full reduction has a 0-d output.
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @min_all
// CHECK: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: linalg.fill ins(%[[INF]] : f32) outs(%{{.*}} : tensor<f32>)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[ALL]]], iterator_types = ["reduction", "reduction"]}
// CHECK: arith.minimumf
func.func @min_all(%x: tensor<4x8xf32>) -> tensor<f32> {
  %0 = kf.min %x : tensor<4x8xf32>
  return %0 : tensor<f32>
}

// -----

// mean stays one linalg op: each element is divided by the count (here a
// dynamic dim) as it is accumulated.
// CHECK-LABEL: func.func @mean_dynamic
// CHECK: %[[D:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<4x?xf32>
// CHECK: %[[N:.*]] = arith.muli %{{.*}}, %[[D]] : index
// CHECK: %[[NI:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[NF:.*]] = arith.sitofp %[[NI]] : i64 to f32
// CHECK: linalg.generic
// CHECK: %[[Q:.*]] = arith.divf %{{.*}}, %[[NF]] : f32
// CHECK: arith.addf %{{.*}}, %[[Q]] : f32
func.func @mean_dynamic(%x: tensor<4x?xf32>) -> tensor<4xf32> {
  %0 = kf.mean %x dims [1] : tensor<4x?xf32>
  return %0 : tensor<4xf32>
}

// -----

// torch.sum of int32 accumulates and returns int64; max of ints starts at
// the smallest i32; max of bools is `or`, min of bools is `and`.
// CHECK-LABEL: func.func @int_reductions
// CHECK: arith.constant 0 : i64
// CHECK: arith.extsi %{{.*}} : i32 to i64
// CHECK: arith.addi
// CHECK: arith.constant -2147483648 : i32
// CHECK: arith.maxsi
// CHECK: arith.constant false
// CHECK: arith.ori
// CHECK: arith.constant true
// CHECK: arith.andi
func.func @int_reductions(%x: tensor<4x8xi32>, %b: tensor<8xi1>) -> (tensor<4xi64>, tensor<8xi32>, tensor<i1>, tensor<i1>) {
  %0 = kf.sum %x dims [1] : tensor<4x8xi32>
  %1 = kf.max %x dims [0] : tensor<4x8xi32>
  %2 = kf.max %b : tensor<8xi1>
  %3 = kf.min %b : tensor<8xi1>
  return %0, %1, %2, %3 : tensor<4xi64>, tensor<8xi32>, tensor<i1>, tensor<i1>
}
