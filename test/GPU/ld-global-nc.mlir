// The inputs a kernel only reads go through the read-only data cache
// (ld.global.nc), its outputs are plain st.global, and a buffer a kernel
// both writes and reads back is never read with .nc (kf-mark-read-only-args
// marks the readonly, noalias parameters NVPTX needs; its own test is
// kf-mark-read-only-args.mlir). The PTX assembles for sm_80 and sm_90.
// RUN: kfuse-compile %s --emit=ptx | FileCheck %s
// RUN: kfuse-compile %s --emit=ptx --gpu-chip=sm_80 -o %t.sm_80.ptx
// RUN: kfuse-compile %s --emit=ptx --gpu-chip=sm_90 -o %t.sm_90.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.sm_80.ptx -o %t.sm_80.cubin %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.sm_90.ptx -o %t.sm_90.cubin %}

// add + relu: both inputs through 128-bit .nc loads (and .nc in the masked
// tail), the result stored plainly; no load without .nc.
// CHECK-LABEL: .entry pointwise_add_relu_0(
// CHECK-NOT: ld.global.{{v4.b32|b32}}
// CHECK: ld.global.nc.v4.b32
// CHECK: ld.global.nc.v4.b32
// CHECK: st.global.v4.b32
// CHECK: ret;
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %s = kf.add %a, %b : tensor<?xf32>, tensor<?xf32>
  %r = kf.relu %s : tensor<?xf32>
  return %r : tensor<?xf32>
}

// A bias over the rows of a 2-D input (the broadcast path, element by
// element): the input and the bias are .nc, the output is not.
// CHECK-LABEL: .entry pointwise_add_1(
// CHECK-NOT: ld.global.b32
// CHECK: ld.global.nc.b32
// CHECK: ld.global.nc.b32
// CHECK: st.global.b32
// CHECK-NOT: ld.global.b32
// CHECK: ret;
func.func @bias(%x: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %y = kf.add %x, %b : tensor<?x?xf32>, tensor<?xf32>
  return %y : tensor<?x?xf32>
}

// Two results of one kernel, the second reading what the first wrote
// (sin and cos of one input share a kernel, each stored; the same input
// is read once): the input is .nc, every store plain.
// CHECK-LABEL: .entry pointwise_sin_cos_2(
// CHECK-NOT: ld.global.v4.b32
// CHECK: ld.global.nc.v4.b32
// CHECK: st.global.v4.b32
// CHECK: st.global.v4.b32
// CHECK: ret;
func.func @siblings(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %s = kf.sin %x : tensor<?xf32>
  %c = kf.cos %x : tensor<?xf32>
  return %s, %c : tensor<?xf32>, tensor<?xf32>
}

// A full sum in one launch: each block stores its partial sum to a buffer
// that the last block reads back. The input is .nc; the partials, written
// by the kernel itself, are read with a plain ld.global (a .nc load could
// return a stale line from the read-only cache).
// CHECK-LABEL: .entry reduction_sum_3(
// CHECK: ld.global.nc.b32
// CHECK: st.global.b32
// CHECK: atom.global.add.u32
// CHECK: ld.global.b32
// CHECK: ret;
func.func @total(%x: tensor<?xf32>) -> tensor<f32> {
  %s = kf.sum %x : tensor<?xf32>
  return %s : tensor<f32>
}

// An op reading another's result through a reshape in the same kernel
// (add, then relu of the [8, 3] view of the add's [4, 6] result): the
// view is the memory the kernel writes, so it is read with a plain
// ld.global, between the .nc loads of the inputs.
// CHECK-LABEL: .entry pointwise_add_relu_mul_4(
// CHECK: ld.global.nc.b32
// CHECK: ld.global.nc.b32
// CHECK: st.global.b32
// CHECK: ld.global.b32
// CHECK: ld.global.nc.b32
// CHECK: st.global.b32
// CHECK: ret;
func.func @reshaped(%x: tensor<4x6xf32>, %b: tensor<6xf32>, %c: tensor<3xf32>) -> tensor<8x3xf32> {
  %y = kf.add %x, %b : tensor<4x6xf32>, tensor<6xf32>
  %z = kf.reshape %y [8, 3] : tensor<4x6xf32>
  %r = kf.relu %z : tensor<8x3xf32>
  %w = kf.mul %r, %c : tensor<8x3xf32>, tensor<3xf32>
  return %w : tensor<8x3xf32>
}
