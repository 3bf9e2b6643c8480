// Broadcast kernels (no vector access) do no division per element: a
// thread walks a run of 4 consecutive elements, its loop indices
// delinearized once for the run (a division and a remainder per dynamic
// dim, before the first element) and then incremented with a compare and a
// select per dim (PointwiseKernels.cpp). In the PTX no div or rem, 32- or
// 64-bit, follows the run's first store. The emulation of the same kernels
// agrees with the CPU pipeline for sizes where the runs cross rows, planes
// and the end, at two block sizes; the PTX assembles for sm_80 and sm_90.
// RUN: kfuse-compile %s --emit=ptx | FileCheck %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline=block-size=32 %s
// RUN: kfuse-compile %s --emit=ptx --gpu-chip=sm_80 -o %t.sm_80.ptx
// RUN: kfuse-compile %s --emit=ptx --gpu-chip=sm_90 -o %t.sm_90.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.sm_80.ptx -o %t.sm_80.cubin %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.sm_90.ptx -o %t.sm_90.cubin %}

// A bias over the rows of [N, C], both dynamic: 5 x 7 = 35 elements, runs
// of 4 wrap rows and the last run has 3.
// CHECK-LABEL: .entry pointwise_add_0(
// CHECK: st.global.b32
// CHECK-NOT: {{(div|rem)\.[su](32|64)}}
// CHECK: st.global.b32
// CHECK-NOT: {{(div|rem)\.[su](32|64)}}
// CHECK: st.global.b32
// CHECK-NOT: {{(div|rem)\.[su](32|64)}}
// CHECK: st.global.b32
// CHECK-NOT: {{(div|rem)\.[su](32|64)}}
// CHECK: ret;
// DIMS @bias: 5 7 7
func.func @bias(%x: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %y = kf.add %x, %b : tensor<?x?xf32>, tensor<?xf32>
  return %y : tensor<?x?xf32>
}

// [N, 1] + [1, C]: every element reads a row's and a column's value.
// CHECK-LABEL: .entry pointwise_add_1(
// CHECK: st.global.b32
// CHECK-NOT: {{(div|rem)\.[su](32|64)}}
// CHECK: st.global.b32
// CHECK-NOT: {{(div|rem)\.[su](32|64)}}
// CHECK: st.global.b32
// CHECK-NOT: {{(div|rem)\.[su](32|64)}}
// CHECK: st.global.b32
// CHECK-NOT: {{(div|rem)\.[su](32|64)}}
// CHECK: ret;
// DIMS @outer: 9 3
func.func @outer(%x: tensor<?x1xf32>, %y: tensor<1x?xf32>) -> tensor<?x?xf32> {
  %s = kf.add %x, %y : tensor<?x1xf32>, tensor<1x?xf32>
  return %s : tensor<?x?xf32>
}

// A per-channel scale of [B, 3, H] then relu, 3-D: a run can carry through
// two dims (the last element of a plane to the next plane's first).
// CHECK-LABEL: .entry pointwise_mul_relu_2(
// CHECK: st.global.b32
// CHECK-NOT: {{(div|rem)\.[su](32|64)}}
// CHECK: st.global.b32
// CHECK-NOT: {{(div|rem)\.[su](32|64)}}
// CHECK: st.global.b32
// CHECK-NOT: {{(div|rem)\.[su](32|64)}}
// CHECK: st.global.b32
// CHECK-NOT: {{(div|rem)\.[su](32|64)}}
// CHECK: ret;
// DIMS @channel: 2 1 2
func.func @channel(%x: tensor<?x3x?xf32>, %s: tensor<3x1xf32>) -> tensor<?x3x?xf32> {
  %y = kf.mul %x, %s : tensor<?x3x?xf32>, tensor<3x1xf32>
  %r = kf.relu %y : tensor<?x3x?xf32>
  return %r : tensor<?x3x?xf32>
}

// Static sizes, 33 x 10 with a bias: 330 elements, 83 runs, the last of 2.
// CHECK-LABEL: .entry pointwise_add_3(
// CHECK-NOT: {{(div|rem)\.[su](32|64)}}
// CHECK: ret;
func.func @static_bias(%x: tensor<33x10xf32>, %b: tensor<10xf32>) -> tensor<33x10xf32> {
  %y = kf.add %x, %b : tensor<33x10xf32>, tensor<10xf32>
  return %y : tensor<33x10xf32>
}

// Ops reshaped from one another in one kernel (add over [4, 6], then relu
// and a scale over its [8, 3] view): each walks its own indices, over its
// own sizes, from the one flat index.
// CHECK-LABEL: .entry pointwise_add_relu_mul_4(
// CHECK-NOT: {{(div|rem)\.[su](32|64)}}
// CHECK: ret;
func.func @reshaped(%x: tensor<4x6xf32>, %b: tensor<6xf32>, %c: tensor<3xf32>) -> tensor<8x3xf32> {
  %y = kf.add %x, %b : tensor<4x6xf32>, tensor<6xf32>
  %z = kf.reshape %y [8, 3] : tensor<4x6xf32>
  %r = kf.relu %z : tensor<8x3xf32>
  %w = kf.mul %r, %c : tensor<8x3xf32>, tensor<3xf32>
  return %w : tensor<8x3xf32>
}

// A 2-D op then a 1-D one over its flattened result (x - s, then relu of
// the reshape): the 1-D op's index is the flat index itself, incremented.
// CHECK-LABEL: .entry pointwise_sub_relu_5(
// CHECK-NOT: {{(div|rem)\.[su](32|64)}}
// CHECK: ret;
func.func @flatten(%x: tensor<5x3xf32>, %s: tensor<f32>) -> tensor<15xf32> {
  %y = kf.sub %x, %s : tensor<5x3xf32>, tensor<f32>
  %f = kf.reshape %y [-1] : tensor<5x3xf32>
  %r = kf.relu %f : tensor<15xf32>
  return %r : tensor<15xf32>
}
