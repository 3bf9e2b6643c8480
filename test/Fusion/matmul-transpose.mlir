// Matmuls take their operands from memory and fuse their elementwise
// epilogue; transposes are kernels of their own; no grouping may make a
// cycle between kernels. A matmul's zero fill is part of its kernel.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: %fusion-diff %s

// matmul + bias + relu: eager matmul 3 (a, w, out), add 3, relu 2; fused
// reads a, w, b and writes y.
// CHECK-LABEL: function @matmul_bias_relu
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK-NEXT: transfers 8 4
// CHECK: matmul_add_relu_{{[0-9]+}} (matmul): ops matmul, add, relu
func.func @matmul_bias_relu(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = kf.matmul %a, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %1 = kf.add %0, %b : tensor<4x16xf32>, tensor<16xf32>
  %2 = kf.relu %1 : tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}

// An MLP block: relu(x w1 + b1) w2 + b2. The second matmul cannot take the
// relu as a prologue. Eager 3 + 3 + 2 + 3 + 3 = 14; fused 4 + 4.
// CHECK-LABEL: function @mlp
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 5 2
// CHECK-NEXT: transfers 14 8
// CHECK: boundaries:
// CHECK-NEXT: matmul_add_relu_{{[0-9]+}} -> matmul_add_{{[0-9]+}} (relu -> matmul): matmul-boundary: matmul boundary
func.func @mlp(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32>, %b1: tensor<16xf32>, %w2: tensor<16x8xf32>, %b2: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = kf.matmul %x, %w1 : tensor<4x8xf32>, tensor<8x16xf32>
  %1 = kf.add %0, %b1 : tensor<4x16xf32>, tensor<16xf32>
  %2 = kf.relu %1 : tensor<4x16xf32>
  %3 = kf.matmul %2, %w2 : tensor<4x16xf32>, tensor<16x8xf32>
  %4 = kf.add %3, %b2 : tensor<4x8xf32>, tensor<8xf32>
  return %4 : tensor<4x8xf32>
}

// No prologue into a matmul: relu(a) stays a kernel. 2 + 3 either way.
// CHECK-LABEL: function @matmul_prologue
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 2
// CHECK-NEXT: transfers 5 5
// CHECK: (relu -> matmul): matmul-boundary
func.func @matmul_prologue(%a: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = kf.relu %a : tensor<4x8xf32>
  %1 = kf.matmul %0, %w : tensor<4x8xf32>, tensor<8x4xf32>
  return %1 : tensor<4x4xf32>
}

// A batched matmul with broadcast batch dims and a scaled epilogue.
// Eager matmul 3, mul 2 (the scale is a splat); fused 3.
// CHECK-LABEL: function @batched_matmul_scale
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 5 3
func.func @batched_matmul_scale(%a: tensor<2x4x8xf32>, %b: tensor<8x3xf32>) -> tensor<2x4x3xf32> {
  %s = kf.constant dense<0.125> : tensor<f32>
  %0 = kf.matmul %a, %b : tensor<2x4x8xf32>, tensor<8x3xf32>
  %1 = kf.mul %0, %s : tensor<2x4x3xf32>, tensor<f32>
  return %1 : tensor<2x4x3xf32>
}

// Two matmuls share a kernel only as a chain of sums (the matmul-chain
// rule, test/Fusion/matmul-chain.mlir): (a b) + (a c) is one kernel with
// one accumulator. Eager 3 + 3 + 3; fused: a, b, c in, out: 4.
// CHECK-LABEL: function @two_matmuls
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK-NEXT: transfers 9 4
// CHECK: boundaries: none
func.func @two_matmuls(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = kf.matmul %a, %b : tensor<4x4xf32>, tensor<4x4xf32>
  %1 = kf.matmul %a, %c : tensor<4x4xf32>, tensor<4x4xf32>
  %2 = kf.add %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}

// relu(x) feeds a matmul and an add that also reads the matmul. Putting
// the add with relu would make relu -> matmul -> add a cycle between
// kernels, so the add joins the matmul. Eager 2 + 2 + 3 (the matmul reads t
// once as both operands); fused relu 2, matmul+add (t, out) 2.
// CHECK-LABEL: function @cycle
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 2
// CHECK-NEXT: transfers 7 4
// CHECK: boundaries:
// CHECK-DAG: (relu -> matmul): matmul-boundary
// CHECK-DAG: (relu -> add): cycle: fusing would make a cycle between kernels
func.func @cycle(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %t = kf.relu %x : tensor<4x4xf32>
  %m = kf.matmul %t, %t : tensor<4x4xf32>, tensor<4x4xf32>
  %w = kf.add %t, %m : tensor<4x4xf32>, tensor<4x4xf32>
  return %w : tensor<4x4xf32>
}

// A transpose is a view: add reads relu's result through it, permuted, and
// relu has no other reader, so its kernel computes relu at the permuted
// element (upstream elementwise fusion composes the maps). Eager: relu 2,
// add 2 (the splat is a constant); fused: read x, write the sum.
// CHECK-LABEL: function @transpose_boundaries
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 2
// CHECK: boundaries: none
func.func @transpose_boundaries(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %one = kf.constant dense<1.0> : tensor<f32>
  %0 = kf.relu %x : tensor<4x8xf32>
  %1 = kf.transpose %0 [1, 0] : tensor<4x8xf32>
  %2 = kf.add %1, %one : tensor<8x4xf32>, tensor<f32>
  return %2 : tensor<8x4xf32>
}

// A reshape that changes the structure before a reduction: the reduction
// reads [8, 4] rows that the producer writes as [4, 8]. The exp runs over
// [8, 4] instead, reading x through the reshape as a view
// (reshape-propagation): one kernel. With the rule off it is a boundary
// (test/Fusion/reshapes.mlir).
// CHECK-LABEL: function @reshape_into_reduction
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK: boundaries: none
func.func @reshape_into_reduction(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %0 = kf.exp %x : tensor<4x8xf32>
  %1 = kf.reshape %0 [8, 4] : tensor<4x8xf32>
  %2 = kf.sum %1 dims [1] : tensor<8x4xf32>
  return %2 : tensor<8xf32>
}

// A kernel holds one matmul or one family of reductions: relu joins the
// matmul as its epilogue, so the row sum that reads relu cannot join too.
// Eager: matmul 3, relu 2, sum 2. Fused: matmul+relu (a, w, r) 3; sum 2.
// CHECK-LABEL: function @anchor_conflict
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 2
// CHECK-NEXT: transfers 7 5
// CHECK: (relu -> sum): anchor-conflict: a kernel holds one matmul or one family of reductions
func.func @anchor_conflict(%a: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4xf32> {
  %0 = kf.matmul %a, %w : tensor<4x8xf32>, tensor<8x4xf32>
  %1 = kf.relu %0 : tensor<4x4xf32>
  %2 = kf.sum %1 dims [1] : tensor<4x4xf32>
  return %2 : tensor<4xf32>
}
