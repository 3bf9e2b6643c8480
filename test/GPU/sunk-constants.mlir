// Constants and index math are sunk into each launch before outlining
// (upstream gpu-launch-sink-index-computations), so a kernel sees them as
// constants, not parameters: relu's zero is an immediate of its compare,
// and a broadcast's division by a static size is a multiply-high.
// RUN: kfuse-compile %s --emit=ptx | FileCheck %s

// relu is x < 0 ? +0 : x (torch.relu: NaN and -0 kept): compare and select
// against the immediate 0; no f32 parameter.
// CHECK-LABEL: .visible .entry pointwise_add_relu_0(
// CHECK-NOT: .param .f32
// CHECK: setp.lt.f32 %p{{[0-9]+}}, %r{{[0-9]+}}, 0f00000000;
// CHECK: selp.f32 %r{{[0-9]+}}, 0f00000000,
func.func @add_relu(%x: tensor<1000xf32>, %y: tensor<1000xf32>) -> tensor<1000xf32> {
  %s = kf.add %x, %y : tensor<1000xf32>, tensor<1000xf32>
  %r = kf.relu %s : tensor<1000xf32>
  return %r : tensor<1000xf32>
}

// A bias over a static last dim of 100: the flat index is split with a
// multiply-high by the constant, no 64-bit division or remainder.
// CHECK-LABEL: .visible .entry pointwise_add_1(
// CHECK-NOT: div.u64
// CHECK-NOT: rem.u64
// CHECK: mul.hi.u64
// CHECK: ret;
func.func @bias(%x: tensor<64x100xf32>, %b: tensor<100xf32>) -> tensor<64x100xf32> {
  %y = kf.add %x, %b : tensor<64x100xf32>, tensor<100xf32>
  return %y : tensor<64x100xf32>
}
