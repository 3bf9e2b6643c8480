// RUN: kfuse-opt %s -split-input-file --kf-to-linalg | FileCheck %s

// 2-D matmul is linalg.matmul on a zero-filled accumulator.
// CHECK-LABEL: func.func @matmul_2d
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x16xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<4x16xf32>)
// CHECK: linalg.matmul {kf.op = "matmul"} ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[F]] : tensor<4x16xf32>)
func.func @matmul_2d(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = kf.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// Batched with broadcast batch dims: one linalg.generic over
// (b0, b1, m, n, k); the lhs's stretched batch dim 1 is collapsed away.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @matmul_batched
// CHECK: %[[L:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3]] : tensor<2x1x4x8xf32> into tensor<2x4x8xf32>
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[L]], %{{.*}} : tensor<2x4x8xf32>, tensor<3x8x16xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @matmul_batched(%a: tensor<2x1x4x8xf32>, %b: tensor<3x8x16xf32>) -> tensor<2x3x4x16xf32> {
  %0 = kf.matmul %a, %b : tensor<2x1x4x8xf32>, tensor<3x8x16xf32>
  return %0 : tensor<2x3x4x16xf32>
}

// -----

// Dynamic inner dims are checked at run time.
// CHECK-LABEL: func.func @matmul_dynamic
// CHECK: cf.assert %{{.*}}, "kf.matmul: inner dims differ at run time"
// CHECK: linalg.matmul
func.func @matmul_dynamic(%a: tensor<4x?xf32>, %b: tensor<?x2xf32>) -> tensor<4x2xf32> {
  %0 = kf.matmul %a, %b : tensor<4x?xf32>, tensor<?x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// transpose is a view; returned, it must exist as a tensor: a copy kernel
// (marked kf.view) whose input map is the permutation's inverse. Result
// dim i is input dim perm[i], so input dims (0, 1, 2) are read at loops
// (d1, d2, d0).
// CHECK-DAG: #[[PERM:.*]] = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
// CHECK-LABEL: func.func @transpose
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[PERM]], #{{.*}}], {{.*}} ins(%{{.*}} : tensor<2x3x4xf32>) outs(%[[E]] : tensor<4x2x3xf32>) attrs = {kf.op = "transpose", kf.view}
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = kf.transpose %x [2, 0, 1] : tensor<2x3x4xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// An f16/bf16 matmul accumulates in f32 (as PyTorch's GEMMs) and its result
// is rounded once, by an op marked kf.finishes (issue 13, item 2).
// CHECK-LABEL: func.func @bf16_matmul
// CHECK: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x2xf32>)
// CHECK: %[[MM:.*]] = linalg.matmul {kf.op = "matmul"} ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x2xbf16>) outs(%[[ACC]] : tensor<4x2xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[MM]] : tensor<4x2xf32>) outs(%{{.*}} : tensor<4x2xbf16>) attrs = {kf.finishes}
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @bf16_matmul(%a: tensor<4x8xbf16>, %b: tensor<8x2xbf16>) -> tensor<4x2xbf16> {
  %0 = kf.matmul %a, %b : tensor<4x8xbf16>, tensor<8x2xbf16>
  return %0 : tensor<4x2xbf16>
}

// -----

// Batched: the generic's body widens the operands and adds in f32.
// CHECK-LABEL: func.func @f16_batched
// CHECK: %[[MM:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<3x4x2xf32>) attrs = {kf.op = "matmul"}
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.mulf %{{.*}} : f32
// CHECK: linalg.generic {{.*}} ins(%[[MM]] : tensor<3x4x2xf32>) outs(%{{.*}} : tensor<3x4x2xf16>) attrs = {kf.finishes}
func.func @f16_batched(%a: tensor<3x4x8xf16>, %b: tensor<3x8x2xf16>) -> tensor<3x4x2xf16> {
  %0 = kf.matmul %a, %b : tensor<3x4x8xf16>, tensor<3x8x2xf16>
  return %0 : tensor<3x4x2xf16>
}
