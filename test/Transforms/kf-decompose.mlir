// RUN: kfuse-opt %s -split-input-file --kf-decompose | FileCheck %s

// softmax(x, 1) = exp(x - max) / sum(exp(x - max)), max and sum over dim 1
// with keepdim so that they broadcast back over the rows.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK: %[[M:.*]] = kf.max %[[X]] dims [1] keepdim {kf.stable_shift} : tensor<4x8xf32>
// CHECK: %[[S:.*]] = kf.sub %[[X]], %[[M]] : tensor<4x8xf32>, tensor<4x1xf32>
// CHECK: %[[E:.*]] = kf.exp %[[S]] : tensor<4x8xf32>
// CHECK: %[[Z:.*]] = kf.sum %[[E]] dims [1] keepdim : tensor<4x8xf32>
// CHECK: %[[Y:.*]] = kf.div %[[E]], %[[Z]] : tensor<4x8xf32>, tensor<4x1xf32>
// CHECK: return %[[Y]]
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = kf.softmax %x dim 1 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// log_softmax = (x - max) - log(sum(exp(x - max))).
// CHECK-LABEL: func.func @log_softmax
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK: %[[M:.*]] = kf.max %[[X]] dims [0] keepdim
// CHECK: %[[S:.*]] = kf.sub %[[X]], %[[M]]
// CHECK: %[[E:.*]] = kf.exp %[[S]]
// CHECK: %[[Z:.*]] = kf.sum %[[E]] dims [0] keepdim
// CHECK: %[[L:.*]] = kf.log %[[Z]] : tensor<1x8xf32>
// CHECK: %[[Y:.*]] = kf.sub %[[S]], %[[L]] : tensor<4x8xf32>, tensor<1x8xf32>
// CHECK: return %[[Y]]
func.func @log_softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = kf.log_softmax %x dim 0 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// layer_norm over the last dim with weight and bias: biased variance, eps
// as a 0-d constant of the input dtype.
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK: %[[EPS:.*]] = kf.constant dense<9.99999974E-6> : tensor<f32>
// CHECK: %[[MU:.*]] = kf.mean %[[X]] dims [-1] keepdim
// CHECK: %[[C:.*]] = kf.sub %[[X]], %[[MU]]
// CHECK: %[[SQ:.*]] = kf.mul %[[C]], %[[C]]
// CHECK: %[[V:.*]] = kf.mean %[[SQ]] dims [-1] keepdim
// CHECK: %[[VE:.*]] = kf.add %[[V]], %[[EPS]]
// CHECK: %[[R:.*]] = kf.rsqrt %[[VE]]
// CHECK: %[[N:.*]] = kf.mul %[[C]], %[[R]]
// CHECK: %[[NW:.*]] = kf.mul %[[N]], %[[W]]
// CHECK: %[[Y:.*]] = kf.add %[[NW]], %[[B]]
// CHECK: return %[[Y]]
func.func @layer_norm(%x: tensor<4x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = kf.layer_norm %x weight %w : tensor<8xf32> bias %b : tensor<8xf32> normalized_shape [8] eps 1.0e-05 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Two normalized dims and no affine parameters.
// CHECK-LABEL: func.func @layer_norm_2d
// CHECK: kf.mean %{{.*}} dims [-2, -1] keepdim : tensor<2x4x8xf32>
// CHECK: kf.rsqrt
// CHECK-NEXT: %[[Y:.*]] = kf.mul
// CHECK-NEXT: return %[[Y]]
func.func @layer_norm_2d(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = kf.layer_norm %x normalized_shape [4, 8] eps 1.0e-05 : tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

// A dynamic normalized dim meets the static weight: the product is 8 wide
// (checked equal at run time), the op's result keeps its `?` by a cast.
// CHECK-LABEL: func.func @layer_norm_dynamic_weight
// CHECK: %[[Y:.*]] = kf.mul %{{.*}}, %{{.*}} : tensor<4x?xf32>, tensor<8xf32>
// CHECK-NEXT: %[[C:.*]] = tensor.cast %[[Y]] : tensor<4x8xf32> to tensor<4x?xf32>
// CHECK-NEXT: return %[[C]] : tensor<4x?xf32>
func.func @layer_norm_dynamic_weight(%x: tensor<4x?xf32>, %w: tensor<8xf32>) -> tensor<4x?xf32> {
  %0 = kf.layer_norm %x weight %w : tensor<8xf32> normalized_shape [8] eps 1.0e-05 : tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// Primitive ops are left alone.
// CHECK-LABEL: func.func @primitives_untouched
// CHECK-NEXT: kf.exp
func.func @primitives_untouched(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.exp %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// f16 and bf16 composites are computed in f32 and rounded once, as PyTorch
// does (issue 13, item 2): a cast in, the f32 decomposition, a cast out.
// CHECK-LABEL: func.func @softmax_f16
// CHECK: %[[W:.*]] = kf.cast %{{.*}} : tensor<4x8xf16> to f32
// CHECK: kf.max %[[W]] dims [1] keepdim {kf.stable_shift} : tensor<4x8xf32>
// CHECK: kf.sum %{{.*}} dims [1] keepdim : tensor<4x8xf32>
// CHECK: %[[Y:.*]] = kf.div %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x1xf32>
// CHECK: %[[R:.*]] = kf.cast %[[Y]] : tensor<4x8xf32> to f16
// CHECK: return %[[R]]
func.func @softmax_f16(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = kf.softmax %x dim 1 : tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// CHECK-LABEL: func.func @layer_norm_bf16
// CHECK: kf.cast %{{.*}} : tensor<2x8xbf16> to f32
// CHECK: kf.mean %{{.*}} dims [-1] keepdim : tensor<2x8xf32>
// CHECK: kf.mul %{{.*}}, %{{.*}} : tensor<2x8xf32>, tensor<8xbf16>
// CHECK: kf.cast %{{.*}} : tensor<2x8xf32> to bf16
func.func @layer_norm_bf16(%x: tensor<2x8xbf16>, %w: tensor<8xbf16>) -> tensor<2x8xbf16> {
  %0 = kf.layer_norm %x weight %w : tensor<8xbf16> normalized_shape [8] eps 1.0e-05 : tensor<2x8xbf16>
  return %0 : tensor<2x8xbf16>
}

// -----

// Over an empty dim softmax has no elements: the input stands for the
// result (a max over nothing would be no value).
// CHECK-LABEL: func.func @softmax_empty_dim
// CHECK-SAME: (%[[X:.*]]: tensor<3x0xf32>)
// CHECK-NOT: kf.max
// CHECK: return %[[X]]
func.func @softmax_empty_dim(%x: tensor<3x0xf32>) -> tensor<3x0xf32> {
  %0 = kf.log_softmax %x dim 1 : tensor<3x0xf32>
  return %0 : tensor<3x0xf32>
}
