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

// mean is the sum divided by the count (here a dynamic dim), not a sum of
// x / n (issue 13, item 4): the division is an op marked kf.finishes, which
// kernel formation keeps in the sum's eager kernel.
// CHECK-LABEL: func.func @mean_dynamic
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT: arith.addf %[[OUT]], %[[IN]] : f32
// CHECK: %[[D:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<4x?xf32>
// CHECK: %[[N:.*]] = arith.muli %{{.*}}, %[[D]] : index
// CHECK: %[[NI:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[NF:.*]] = arith.sitofp %[[NI]] : i64 to f32
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<4xf32>) {{.*}} attrs = {kf.finishes}
// CHECK: arith.divf %{{.*}}, %[[NF]] : f32
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

// -----

// f16 and bf16 sums and matmuls accumulate in f32 and are rounded once by
// an op that finishes them (issue 13, item 2); keepdim comes after it.
// CHECK-LABEL: func.func @f16_sum_keepdim
// CHECK: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<4x8xf16>) outs(%[[ACC]] : tensor<4xf32>) attrs = {kf.op = "sum"}
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.addf %{{.*}} : f32
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<4xf32>) outs(%{{.*}} : tensor<4xf16>) attrs = {kf.finishes}
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: tensor.expand_shape %[[R]] {{\[}}[0, 1]] output_shape [4, 1] : tensor<4xf16> into tensor<4x1xf16>
func.func @f16_sum_keepdim(%x: tensor<4x8xf16>) -> tensor<4x1xf16> {
  %0 = kf.sum %x dims [1] keepdim : tensor<4x8xf16>
  return %0 : tensor<4x1xf16>
}

// -----

// max is exact in any dtype: it stays in bf16.
// CHECK-LABEL: func.func @bf16_max
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<4xbf16>) attrs = {kf.op = "max"}
// CHECK: arith.maximumf %{{.*}} : bf16
// CHECK-NOT: kf.finishes
func.func @bf16_max(%x: tensor<4x8xbf16>) -> tensor<4xbf16> {
  %0 = kf.max %x dims [1] : tensor<4x8xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// A max over a dynamic dim checks at run time that it is not empty.
// CHECK-LABEL: func.func @max_dynamic
// CHECK: %[[D:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<4x?xf32>
// CHECK: %[[NE:.*]] = arith.cmpi ne, %[[D]], %{{.*}} : index
// CHECK: cf.assert %[[NE]], "kf.max: max and min of an empty dim have no value"
func.func @max_dynamic(%x: tensor<4x?xf32>) -> tensor<4xf32> {
  %0 = kf.max %x dims [1] : tensor<4x?xf32>
  return %0 : tensor<4xf32>
}
