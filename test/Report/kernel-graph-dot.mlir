// kf-kernel-report format=dot: the fused kernels as a Graphviz graph, one
// digraph per module, a cluster per function (labelled with its kernel and
// byte counts, fused and eager) and in it a cluster per kernel (name and
// kind) holding its ops; arguments and results are ellipses; an edge that
// crosses kernels is red, labelled with the boundary's reason and the bytes
// of the tensor it carries. The byte counts below are computed by hand
// (elements x 4 bytes for f32).
// multi-reduction=false: @recomputed's two reductions of exp(x) over
// different dims would otherwise be one kernel (Fusion/multi-reduction.mlir);
// here they show a recomputed producer.
// RUN: kfuse-opt %s -split-input-file "--kf-kernel-report=format=dot multi-reduction=false" -o /dev/null | FileCheck %s
// RUN: kfuse-opt %s -split-input-file "--kf-kernel-report=format=dot row-persistent=false multi-reduction=false" -o /dev/null | FileCheck %s --check-prefix=NOROW

// add+relu: one kernel, no boundary. Fused: read a and b, write c, 3 x
// 1000000 x 4 = 12000000 bytes; eager adds tmp written and read back:
// 5 x 4000000 = 20000000.
// CHECK-LABEL: digraph kfuse {
// CHECK: subgraph cluster_f0 {
// CHECK-NEXT: label="@add_relu: 1 kernels, 12000000 bytes (eager 2 kernels, 20000000 bytes)";
// CHECK: f0_arg0 [label="arg0\n1000000xf32", shape=ellipse];
// CHECK-NEXT: f0_arg1 [label="arg1\n1000000xf32", shape=ellipse];
// CHECK-NEXT: subgraph cluster_f0_k0 {
// CHECK-NEXT: label="pointwise_add_relu_0 (pointwise)";
// CHECK: f0_k0_op0 [label="add\n1000000xf32"];
// CHECK-NEXT: f0_k0_op1 [label="relu\n1000000xf32"];
// CHECK-NEXT: }
// CHECK-NOT: subgraph
// CHECK: f0_result0 [label="result0\n1000000xf32", shape=ellipse];
// CHECK-NEXT: f0_arg0 -> f0_k0_op0;
// CHECK-NEXT: f0_arg1 -> f0_k0_op0;
// CHECK-NEXT: f0_k0_op0 -> f0_k0_op1;
// CHECK-NEXT: f0_k0_op1 -> f0_result0;
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @add_relu(%a: tensor<1000000xf32>, %b: tensor<1000000xf32>) -> tensor<1000000xf32> {
  %tmp = kf.add %a, %b : tensor<1000000xf32>, tensor<1000000xf32>
  %c = kf.relu %tmp : tensor<1000000xf32>
  return %c : tensor<1000000xf32>
}

// -----

// softmax: one row kernel by default; without row-persistent, three
// kernels and three boundaries, each naming the switch: the row maxima
// (1024 x 4 = 4096 bytes), exp (1024 x 1024 x 4 = 4194304) and the row
// sums (4096) go through memory.
// CHECK-LABEL: label="@softmax: 1 kernels
// CHECK: label="reduction_max_sub_exp_sum_div_0 (reduction)";
// CHECK-NOT: color=red
// CHECK: f0_k0_op4 -> f0_result0;
// NOROW-LABEL: label="@softmax: 3 kernels
// NOROW: subgraph cluster_f0_k0 {
// NOROW-NEXT: label="reduction_max_0 (reduction)";
// NOROW: f0_k0_op0 [label="max\n1024xf32"];
// NOROW: subgraph cluster_f0_k1 {
// NOROW-NEXT: label="reduction_sub_exp_sum_1 (reduction)";
// NOROW: f0_k1_op1 [label="sub\n1024x1024xf32"];
// NOROW-NEXT: f0_k1_op2 [label="exp\n1024x1024xf32"];
// NOROW-NEXT: f0_k1_op3 [label="sum\n1024xf32"];
// NOROW: subgraph cluster_f0_k2 {
// NOROW-NEXT: label="pointwise_div_2 (pointwise)";
// NOROW: f0_k2_op4 [label="div\n1024x1024xf32"];
// NOROW: f0_arg0 -> f0_k0_op0;
// NOROW-NEXT: f0_arg0 -> f0_k1_op1;
// NOROW-NEXT: f0_k0_op0 -> f0_k1_op1 [label="rule-disabled: row-persistent=false\n4096 bytes", tooltip="rule-disabled: row-persistent=false", color=red
// NOROW-NEXT: f0_k1_op1 -> f0_k1_op2;
// NOROW-NEXT: f0_k1_op2 -> f0_k1_op3;
// NOROW-NEXT: f0_k1_op2 -> f0_k2_op4 [label="rule-disabled: row-persistent=false\n4194304 bytes", {{.*}}color=red
// NOROW-NEXT: f0_k1_op3 -> f0_k2_op4 [label="rule-disabled: row-persistent=false\n4096 bytes", {{.*}}color=red
// NOROW-NEXT: f0_k2_op4 -> f0_result0;
func.func @softmax(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %y = kf.softmax %x dim -1 : tensor<1024x1024xf32>
  return %y : tensor<1024x1024xf32>
}

// -----

// A matmul with its epilogue (bias, relu) in one kernel; the second matmul
// reads relu's 16 x 64 x 4 = 4096 bytes from memory. Fused bytes: x 2048,
// w1 8192, b 256, relu 4096 written; relu 4096, w2 2048 read and 512
// written: 21248.
// CHECK-LABEL: label="@matmul_epilogue: 2 kernels, 21248 bytes
// CHECK: label="matmul_add_relu_0 (matmul)";
// CHECK: f0_k0_op0 [label="matmul\n16x64xf32"];
// CHECK-NEXT: f0_k0_op1 [label="add\n16x64xf32"];
// CHECK-NEXT: f0_k0_op2 [label="relu\n16x64xf32"];
// CHECK: label="matmul_1 (matmul)";
// CHECK: f0_k1_op3 [label="matmul\n16x8xf32"];
// CHECK: f0_arg2 -> f0_k0_op1;
// CHECK: f0_k0_op0 -> f0_k0_op1;
// CHECK-NEXT: f0_k0_op1 -> f0_k0_op2;
// CHECK-NEXT: f0_k0_op2 -> f0_k1_op3 [label="matmul-boundary\n4096 bytes", tooltip="matmul-boundary: matmul boundary", color=red
func.func @matmul_epilogue(%x: tensor<16x32xf32>, %w1: tensor<32x64xf32>, %b: tensor<64xf32>,
                           %w2: tensor<64x8xf32>) -> tensor<16x8xf32> {
  %h = kf.matmul %x, %w1 : tensor<16x32xf32>, tensor<32x64xf32>
  %hb = kf.add %h, %b : tensor<16x64xf32>, tensor<64xf32>
  %r = kf.relu %hb : tensor<16x64xf32>
  %o = kf.matmul %r, %w2 : tensor<16x64xf32>, tensor<64x8xf32>
  return %o : tensor<16x8xf32>
}

// -----

// Three kernels, two reshape boundaries: exp (4 x 8 x 4 = 128 bytes) read
// as [8, 4] rows, and neg (8 x 4 = 32 bytes) read as [2, 4]. mul joins
// add's kernel (it reads add), and the two results come from different
// kernels.
// CHECK-LABEL: label="@several: 3 kernels, 720 bytes (eager 6 kernels, 1168 bytes)";
// CHECK: label="pointwise_add_exp_mul_2 (pointwise)";
// CHECK: f0_k0_op0 [label="add\n4x8xf32"];
// CHECK-NEXT: f0_k0_op1 [label="exp\n4x8xf32"];
// CHECK-NEXT: f0_k0_op5 [label="mul\n4x8xf32"];
// CHECK: label="reduction_sum_neg_0 (reduction)";
// CHECK: f0_k1_op2 [label="sum\n8xf32"];
// CHECK-NEXT: f0_k1_op3 [label="neg\n8xf32"];
// CHECK: label="reduction_max_1 (reduction)";
// CHECK: f0_k2_op4 [label="max\n4xf32"];
// CHECK: f0_result0 [label="result0\n4xf32", shape=ellipse];
// CHECK-NEXT: f0_result1 [label="result1\n4x8xf32", shape=ellipse];
// CHECK: f0_k0_op1 -> f0_k1_op2 [label="reshape\n128 bytes", tooltip="reshape: reshape changes the iteration space", color=red
// CHECK: f0_k1_op3 -> f0_k2_op4 [label="reshape\n32 bytes", {{.*}}color=red
// CHECK-NEXT: f0_k2_op4 -> f0_result0;
// CHECK-NEXT: f0_k0_op5 -> f0_result1;
func.func @several(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %0 = kf.add %x, %y : tensor<4x8xf32>, tensor<4x8xf32>
  %1 = kf.exp %0 : tensor<4x8xf32>
  %2 = kf.reshape %1 [8, 4] : tensor<4x8xf32>
  %3 = kf.sum %2 dims [1] : tensor<8x4xf32>
  %4 = kf.neg %3 : tensor<8xf32>
  %5 = kf.reshape %4 [2, 4] : tensor<8xf32>
  %6 = kf.max %5 dims [0] : tensor<2x4xf32>
  %7 = kf.mul %0, %0 : tensor<4x8xf32>, tensor<4x8xf32>
  return %6, %7 : tensor<4xf32>, tensor<4x8xf32>
}

// -----

// exp, read by two reductions over different dims, is recomputed in each
// of their kernels: drawn in both, and nothing crosses a kernel.
// CHECK-LABEL: label="@recomputed: 2 kernels
// CHECK: label="reduction_exp_sum_0 (reduction)";
// CHECK: f0_k0_op0 [label="exp\n4x8xf32"];
// CHECK-NEXT: f0_k0_op1 [label="sum\n8xf32"];
// CHECK: label="reduction_exp_sum_1 (reduction)";
// CHECK: f0_k1_op0 [label="exp\n4x8xf32"];
// CHECK-NEXT: f0_k1_op2 [label="sum\n4xf32"];
// CHECK-NOT: color=red
// CHECK: f0_arg0 -> f0_k0_op0;
// CHECK-NEXT: f0_arg0 -> f0_k1_op0;
// CHECK-NEXT: f0_k0_op0 -> f0_k0_op1;
// CHECK-NEXT: f0_k1_op0 -> f0_k1_op2;
func.func @recomputed(%x: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %0 = kf.exp %x : tensor<4x8xf32>
  %1 = kf.sum %0 dims [0] : tensor<4x8xf32>
  %2 = kf.sum %0 dims [1] : tensor<4x8xf32>
  return %1, %2 : tensor<8xf32>, tensor<4xf32>
}

// -----

// Names are escaped in labels: a function named with a quote and a
// backslash.
// CHECK-LABEL: label="@odd\"name\\x: 1 kernels
func.func @"odd\"name\\x"(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kf.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Dynamic sizes are polynomials in d0, named in the function's label: the
// MLP of examples/mlp.mlir. relu's ?x1024xf32 is 4096*d0 bytes; fused,
// x (1024*d0), w1 (1048576), b1 (4096) and relu (4096*d0), then relu
// again, w2 (1048576), b2 (1024) and y (1024*d0): 10240*d0 + 2102272.
// CHECK-LABEL: label="@mlp: 2 kernels, 10240*d0 + 2102272 bytes (eager 5 kernels, {{.*}})\nd0 = dim 0 of arg 0";
// CHECK: label="matmul_add_relu_0 (matmul)";
// CHECK: label="matmul_add_1 (matmul)";
// CHECK: f0_k0_op2 -> f0_k1_op3 [label="matmul-boundary\n4096*d0 bytes"
func.func @mlp(%x: tensor<?x256xf32>, %w1: tensor<256x1024xf32>, %b1: tensor<1024xf32>,
               %w2: tensor<1024x256xf32>, %b2: tensor<256xf32>) -> tensor<?x256xf32> {
  %h = kf.matmul %x, %w1 : tensor<?x256xf32>, tensor<256x1024xf32>
  %hb = kf.add %h, %b1 : tensor<?x1024xf32>, tensor<1024xf32>
  %a = kf.relu %hb : tensor<?x1024xf32>
  %o = kf.matmul %a, %w2 : tensor<?x1024xf32>, tensor<1024x256xf32>
  %y = kf.add %o, %b2 : tensor<?x256xf32>, tensor<256xf32>
  return %y : tensor<?x256xf32>
}
