// Found by kf_fuzz.py with dynamic dims (seed 3, program 73): the sub %v0
// is recomputed in the last kernel, whose add reads it through the collapse
// that drops its stretched unit dim. The copy was read without the collapse
// (a 1x?xf32 operand under a 1-d indexing map: the verifier refused the
// linalg.generic). The recomputed producer is now read through copies of
// the views between it and its consumer.
// Since rows must match (issue 13, item 1) this program no longer
// recomputes the sub in the last kernel (that kernel is a reduction over
// other rows), so @recompute_view below makes the same shape of recompute:
// a [1, ?] sub, fused into a row sum, recomputed in a pointwise kernel that
// reads it broadcast through the collapse of its unit dim.
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels=merge-bodies=false | FileCheck %s
// RUN: %fusion-diff %s

// CHECK-LABEL: func.func @recompute_view
// CHECK: kf.kernel "reduction_sub_sum_{{[0-9]+}}"
// CHECK: kf.kernel "pointwise_exp_sub_add_mul_{{[0-9]+}}"
// CHECK: %[[SUB:.*]] = linalg.generic {{.*}} ins(%arg0, %{{.*}} : tensor<1x?xf32>, tensor<1xf32>) {{.*}} {kf.op = "sub"}
// CHECK: %[[VIEW:.*]] = tensor.collapse_shape %[[SUB]] {{\[\[}}0, 1]] : tensor<1x?xf32> into tensor<?xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[VIEW]] : tensor<2x2x?xf32>, tensor<?xf32>) {{.*}} {kf.op = "add"}
// DIMS @recompute_view: 3 3
func.func @recompute_view(%a: tensor<1x?xf32>, %b: tensor<1x1xf32>, %c: tensor<2x2x?xf32>) -> (tensor<1x1xf32>, tensor<2x2x?xf32>) {
  %v0 = kf.sub %a, %b : tensor<1x?xf32>, tensor<1x1xf32>
  %s = kf.sum %v0 dims [1] keepdim : tensor<1x?xf32>
  %w = kf.exp %a : tensor<1x?xf32>
  %r = kf.add %c, %v0 : tensor<2x2x?xf32>, tensor<1x?xf32>
  %q = kf.mul %r, %w : tensor<2x2x?xf32>, tensor<1x?xf32>
  return %s, %q : tensor<1x1xf32>, tensor<2x2x?xf32>
}

// DIMS @p3_73: 1
func.func @p3_73(%arg1: tensor<1x?xbf16>, %arg2: tensor<1x1xf32>, %arg3: tensor<2x1xf32>) -> (tensor<2x2x?xf32>) {
  %v0 = kf.sub %arg1, %arg2 : tensor<1x?xbf16>, tensor<1x1xf32>
  %v1 = kf.maximum %v0, %arg1 : tensor<1x?xf32>, tensor<1x?xbf16>
  %v2 = kf.reciprocal %v1 : tensor<1x?xf32>
  %v3 = kf.layer_norm %v2 normalized_shape [1, 1] eps 1.0e-05 : tensor<1x?xf32>
  %v4 = kf.sub %v3, %v0 : tensor<1x?xf32>, tensor<1x?xf32>
  %v5 = kf.broadcast_to %v4 [2, 2, -1] : tensor<1x?xf32>
  %v8 = kf.layer_norm %v5 bias %arg3 : tensor<2x1xf32> normalized_shape [2, 1] eps 1.0e-05 : tensor<2x2x?xf32>
  %v10 = kf.le %arg3, %v8 : tensor<2x1xf32>, tensor<2x2x?xf32>
  %v16 = kf.mul %v8, %v10 : tensor<2x2x?xf32>, tensor<2x2x?xi1>
  %v19 = kf.add %v16, %v0 : tensor<2x2x?xf32>, tensor<1x?xf32>
  return %v19 : tensor<2x2x?xf32>
}
