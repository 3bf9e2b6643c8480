// Elementwise fusion: chains, diamonds, several outputs, broadcasts, casts,
// reshapes. Counts follow from the rules (docs/ARCHITECTURE.md): each kernel
// reads each distinct input once and writes each output once; splat
// constants are immediates, not transfers; broadcasts and reshapes are no
// kernel.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: %fusion-diff %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s

// The article, length 8. Eager: add reads a, b, writes tmp (3); relu reads
// tmp, writes c (2): 2 kernels, 5 transfers. Fused: reads a, b, writes c.
// CHECK-LABEL: function @add_relu_8
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 5 3
// CHECK-NEXT: elements 40 24
// CHECK-NEXT: bytes 160 96
// CHECK: pointwise_add_relu_{{[0-9]+}} (pointwise): ops add, relu
// CHECK-NEXT: reads arg0 8xf32, arg1 8xf32
// CHECK: boundaries: none
func.func @add_relu_8(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.add %a, %b : tensor<8xf32>, tensor<8xf32>
  %1 = kf.relu %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// The article's add alone: 1 kernel, 3 transfers either way.
// CHECK-LABEL: function @add_8
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 1 1
// CHECK-NEXT: transfers 3 3
func.func @add_8(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.add %a, %b : tensor<8xf32>, tensor<8xf32>
  return %0 : tensor<8xf32>
}

// neg, exp, mul, relu: eager 4 kernels, 2 + 2 + 3 + 2 = 9 transfers;
// fused one kernel reads a, b and writes the result: 3.
// CHECK-LABEL: function @chain4
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 4 1
// CHECK-NEXT: transfers 9 3
// CHECK: pointwise_neg_exp_mul_relu_{{[0-9]+}}
func.func @chain4(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %0 = kf.neg %a : tensor<16xf32>
  %1 = kf.exp %0 : tensor<16xf32>
  %2 = kf.mul %1, %b : tensor<16xf32>, tensor<16xf32>
  %3 = kf.relu %2 : tensor<16xf32>
  return %3 : tensor<16xf32>
}

// A bias row over every row, then relu. Eager: add reads x (32) and b (8),
// writes 32; relu reads 32, writes 32: 136 elements. Fused: 32 + 8 + 32 = 72.
// CHECK-LABEL: function @bias_add_relu
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 5 3
// CHECK-NEXT: elements 136 72
func.func @bias_add_relu(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = kf.add %x, %b : tensor<4x8xf32>, tensor<8xf32>
  %1 = kf.relu %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// Casts fuse like any elementwise op: f16 -> f32, mul, f32 -> f16. Eager
// 2 + 3 + 2 = 7 transfers; bytes 16*2+16*4 + (16*4*3) + 16*4+16*2 = 384.
// Fused: reads x (f16, 32 bytes) and w (f32, 64), writes f16 (32) = 128.
// CHECK-LABEL: function @casts
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK-NEXT: transfers 7 3
// CHECK-NEXT: elements 112 48
// CHECK-NEXT: bytes 384 128
func.func @casts(%x: tensor<16xf16>, %w: tensor<16xf32>) -> tensor<16xf16> {
  %0 = kf.cast %x : tensor<16xf16> to f32
  %1 = kf.mul %0, %w : tensor<16xf32>, tensor<16xf32>
  %2 = kf.cast %1 : tensor<16xf32> to f16
  return %2 : tensor<16xf16>
}

// A diamond that closes: t = exp(x); a = t + 1 (a splat: no transfer);
// b = t * t (reads t once); c = a + b. Eager 2 + 2 + 2 + 3 = 9 transfers;
// fused reads x and writes c.
// CHECK-LABEL: function @diamond
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 4 1
// CHECK-NEXT: transfers 9 2
// CHECK: boundaries: none
func.func @diamond(%x: tensor<8xf32>) -> tensor<8xf32> {
  %one = kf.constant dense<1.0> : tensor<f32>
  %t = kf.exp %x : tensor<8xf32>
  %a = kf.add %t, %one : tensor<8xf32>, tensor<f32>
  %b = kf.mul %t, %t : tensor<8xf32>, tensor<8xf32>
  %c = kf.add %a, %b : tensor<8xf32>, tensor<8xf32>
  return %c : tensor<8xf32>
}

// One producer, two results: kept as one kernel with two outputs. Eager
// exp 2, add 3, mul 3 = 8; fused reads x, y, writes a, b = 4.
// CHECK-LABEL: function @two_outputs
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK-NEXT: transfers 8 4
// CHECK: writes pointwise_exp_add_mul_{{[0-9]+}}#0 8xf32, pointwise_exp_add_mul_{{[0-9]+}}#1 8xf32
func.func @two_outputs(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %t = kf.exp %x : tensor<8xf32>
  %a = kf.add %t, %y : tensor<8xf32>, tensor<8xf32>
  %b = kf.mul %t, %y : tensor<8xf32>, tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}

// broadcast_to costs no kernel, eager or fused: the add reads b through an
// indexing map. 1 kernel, 3 transfers, 32 + 8 + 32 elements.
// CHECK-LABEL: function @broadcast_free
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 1 1
// CHECK-NEXT: transfers 3 3
// CHECK-NEXT: elements 72 72
func.func @broadcast_free(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = kf.broadcast_to %b [4, 8] : tensor<8xf32>
  %1 = kf.add %x, %0 : tensor<4x8xf32>, tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// A reshape is no kernel, and the elementwise ops on both sides fuse
// across it (same 32 elements in the same order). Eager 3 + 2 = 5.
// CHECK-LABEL: function @across_reshape
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 5 3
func.func @across_reshape(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<32xf32> {
  %0 = kf.add %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
  %1 = kf.reshape %0 [32] : tensor<4x8xf32>
  %2 = kf.relu %1 : tensor<32xf32>
  return %2 : tensor<32xf32>
}

// x * 2 + x: the splat 2 is an immediate. Eager: mul reads x, writes t (2);
// add reads t, x, writes y (3). Fused: reads x, writes y.
// CHECK-LABEL: function @scalar_constant
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 5 2
func.func @scalar_constant(%x: tensor<8xf32>) -> tensor<8xf32> {
  %two = kf.constant dense<2.0> : tensor<f32>
  %0 = kf.mul %x, %two : tensor<8xf32>, tensor<f32>
  %1 = kf.add %0, %x : tensor<8xf32>, tensor<8xf32>
  return %1 : tensor<8xf32>
}

// A small producer broadcast into a bigger consumer is recomputed per
// element rather than written: exp(b) over 8, added to every row of x.
// Eager: exp 2 (8 + 8), add 3 (32 + 8 + 32). Fused: 32 + 8 + 32.
// CHECK-LABEL: function @broadcast_producer
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 5 3
// CHECK-NEXT: elements 88 72
func.func @broadcast_producer(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = kf.exp %b : tensor<8xf32>
  %1 = kf.add %x, %0 : tensor<4x8xf32>, tensor<8xf32>
  return %1 : tensor<4x8xf32>
}
