// kf.cumsum lowers to a reduction over a second loop j along the scanned
// dim whose terms are kept where j <= i: out[l, i] = sum_j (j <= i ?
// x[l, j] : 0), accumulated from a fill of 0 (ScanToLinalg.cpp; the scan
// mapping runs it as one pass a line).
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg | FileCheck %s

// Along the last dim of a 4x8: loops (l, i, j); x read at (l, j).
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @last_dim
// CHECK-SAME:    (%[[XV:.*]]: tensor<4x8xf32>)
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[X]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME:      ins(%[[XV]] : tensor<4x8xf32>) outs(%[[INIT]] : tensor<4x8xf32>) attrs = {kf.op = "cumsum"}
// CHECK:         ^bb0(%[[T:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-DAG:       %[[I:.*]] = linalg.index 1 : index
// CHECK-DAG:       %[[J:.*]] = linalg.index 2 : index
// CHECK:           %[[KEPT:.*]] = arith.cmpi ule, %[[J]], %[[I]] : index
// CHECK:           %[[TERM:.*]] = arith.select %[[KEPT]], %[[T]], %{{.*}} : f32
// CHECK:           %[[SUM:.*]] = arith.addf %[[ACC]], %[[TERM]] : f32
// CHECK:           linalg.yield %[[SUM]]
// CHECK:         } -> tensor<4x8xf32>
func.func @last_dim(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = kf.cumsum %x dim 1 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Along the first dim of a dynamic 2-D: x read at (j, l).
// CHECK-DAG:   #[[X0:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func.func @first_dim
// CHECK:         tensor.empty(%{{.*}}) : tensor<?x3xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[X0]], #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-DAG:       linalg.index 0 : index
// CHECK-DAG:       linalg.index 2 : index
func.func @first_dim(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = kf.cumsum %x dim -2 : tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// A bool mask: each term extended to i64 (0 or 1) and summed as i64.
// CHECK-LABEL: func.func @mask
// CHECK:         linalg.fill ins(%{{.*}} : i64) outs(%{{.*}} : tensor<2x16xi64>)
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[M:.*]]: i1, %[[ACC:.*]]: i64):
// CHECK:           %[[E:.*]] = arith.extui %[[M]] : i1 to i64
// CHECK:           arith.select %{{.*}}, %[[E]], %{{.*}} : i64
// CHECK:           arith.addi %[[ACC]], %{{.*}} : i64
// CHECK:         } -> tensor<2x16xi64>
func.func @mask(%m: tensor<2x16xi1>) -> tensor<2x16xi64> {
  %0 = kf.cumsum %m dim 1 : tensor<2x16xi1>
  return %0 : tensor<2x16xi64>
}

// -----

// f16 accumulates in f32; a finishing generic rounds each element to f16.
// CHECK-LABEL: func.func @half
// CHECK:         %[[S:.*]] = linalg.generic
// CHECK:           arith.extf %{{.*}} : f16 to f32
// CHECK:           arith.addf %{{.*}} : f32
// CHECK:         } -> tensor<5xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[S]] : tensor<5xf32>)
// CHECK:           arith.truncf %{{.*}} : f32 to f16
// CHECK:         } -> tensor<5xf16>
func.func @half(%h: tensor<5xf16>) -> tensor<5xf16> {
  %0 = kf.cumsum %h dim 0 : tensor<5xf16>
  return %0 : tensor<5xf16>
}
