// kf-form-kernels checks every kernel it forms against the GPU mappings
// (issue 12, item 6's invariant): the ops of a fused kernel no mapping
// serves are kept in kernels of their own, with the boundary `unmappable`
// naming the refused kernel and the mapping's reason, unless an op is
// refused even alone (then fusing loses nothing). check-mappings=false
// shows what the rules alone form.
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings=serial-fallback=true | FileCheck %s
// RUN: not kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels=check-mappings=false --kf-assign-kernel-mappings -o /dev/null 2>&1 | FileCheck %s --check-prefix=RAW
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels=reshape-propagation=false --kf-assign-kernel-mappings=serial-fallback=true | FileCheck %s --check-prefix=ODD
// RUN: %fusion-diff %s

// y = a * 2 is written out and read broadcast by the add: the rules fuse
// them, but a flat kernel's ops must share one iteration space (8 vs 4x8),
// and mul cannot be computed inside the add (it has another reader).
// CHECK-LABEL: func.func @shared_broadcast
// CHECK-SAME: kf.boundaries = [#kf.boundary<producer = "pointwise_mul_{{[0-9]+}}", producer_op = "mul", consumer = "pointwise_add_{{[0-9]+}}", consumer_op = "add", reason = unmappable, detail = "no GPU mapping serves the fused kernel (pointwise_mul_add_0: its ops iterate over different shapes)">]
// CHECK: kf.kernel "pointwise_mul_{{[0-9]+}}" kind pointwise mapping flat
// CHECK: kf.kernel "pointwise_add_{{[0-9]+}}" kind pointwise mapping flat
// RAW: error: kernel 'pointwise_mul_add_0' (pointwise, 2 linalg ops) cannot be mapped to the GPU yet: its ops iterate over different shapes
func.func @shared_broadcast(%a: tensor<8xf32>, %b: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<4x8xf32>) {
  %two = kf.constant dense<2.0> : tensor<f32>
  %y = kf.mul %a, %two : tensor<8xf32>, tensor<f32>
  %z = kf.add %b, %y : tensor<4x8xf32>, tensor<8xf32>
  return %y, %z : tensor<8xf32>, tensor<4x8xf32>
}

// -----

// A batched matmul (batch as grid z) keeps its epilogue fused: one matmul
// kernel, no boundary.
// CHECK-LABEL: func.func @batched_matmul_scale
// CHECK-SAME: kf.boundaries = []
// CHECK: kf.kernel "matmul_mul_{{[0-9]+}}" kind matmul mapping matmul
func.func @batched_matmul_scale(%a: tensor<2x4x8xf32>, %b: tensor<8x3xf32>) -> tensor<2x4x3xf32> {
  %s = kf.constant dense<0.125> : tensor<f32>
  %0 = kf.matmul %a, %b : tensor<2x4x8xf32>, tensor<8x3xf32>
  %1 = kf.mul %0, %s : tensor<2x4x3xf32>, tensor<f32>
  return %1 : tensor<2x4x3xf32>
}

// -----

// One op of a refused elementwise kernel iterates differently from the
// others (a depthwise convolution's weight slice [8, 1] read by ops over
// [2, 8, 1, 1]): only that op is kept apart, the others stay one kernel
// (before, every op became a kernel: 4 here, 97 in a ConvNeXt block).
// That is without reshape-propagation (ODD); with it, the ops run over
// [2, 8, 1] (the reshape's unit dims collapsed) and all iterate alike: one
// kernel. (The slice's step of 2 keeps it before the reshape: with step 1,
// kf's canonical order puts it after, a view the mul reads in place, and
// no op iterates differently.)
// ODD-LABEL: func.func @odd_one_out
// ODD-SAME: reason = unmappable, detail = "no GPU mapping serves the fused kernel (pointwise_slice_mul_add_relu_0: its ops iterate over different shapes)"
// ODD: kf.kernel "pointwise_slice_{{[0-9]+}}" kind pointwise mapping flat
// ODD: kf.kernel "pointwise_mul_add_relu_{{[0-9]+}}" kind pointwise mapping flat
// ODD-NOT: kf.kernel
// CHECK-LABEL: func.func @odd_one_out
// CHECK-SAME: kf.boundaries = []
// CHECK: kf.kernel "pointwise_slice_mul_add_relu_{{[0-9]+}}" kind pointwise mapping flat
// CHECK-NOT: kf.kernel
func.func @odd_one_out(%w: tensor<8x49xf32>, %x: tensor<2x8x1x1xf32>, %y: tensor<2x8x1x1xf32>) -> tensor<2x8x1x1xf32> {
  %tap = kf.slice %w starts [0, 24] ends [9223372036854775807, 26] steps [1, 2] : tensor<8x49xf32>
  %tc = kf.reshape %tap [8, 1, 1] : tensor<8x1xf32>
  %m = kf.mul %x, %tc : tensor<2x8x1x1xf32>, tensor<8x1x1xf32>
  %a = kf.add %m, %y : tensor<2x8x1x1xf32>, tensor<2x8x1x1xf32>
  %r = kf.relu %a : tensor<2x8x1x1xf32>
  return %r : tensor<2x8x1x1xf32>
}
