// The host runtime's attention kernel (gpu/attention/AttentionHost.cpp:
// blocks of one thread, 16 query rows a block inside tiles of 32 keys,
// each tile's k and v staged once for the rows, scores and probabilities
// as vectors of the tile's keys) run by kfuse-run on the CPU against numpy
// in float64 (the script computes the reference): random q, k, v, masks
// with -inf (a causal band, a query masked whole: NaN as eager softmax
// gives, queries whose first 40 keys are masked: the online max stays
// -inf over a whole tile), key counts around the tile (1, 31, 32, 33, 70),
// query counts around the block (1, 5, 16, 17, 70). Tolerance: a score's
// f32 error is a few ulps of |q||k| (head dim 8: ~1e-6), which the softmax
// turns into that relative error of the probabilities; the output, an
// average of v's rows, then errs by that times max|v|: atol 1e-5 * max|v|.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-compile %s --emit=lib -o %t/a.so
// RUN: kfuse-compile %s --emit=kernels | FileCheck %s --check-prefix=KERNEL
// RUN: %python %s.py %t kfuse-run | FileCheck %s
// KERNEL: kf.kernel "attention_matmul_mul_add_max_sub_exp_sum_div_etc_0" kind attention
// KERNEL: kf.kernel "attention_matmul_div_add_max_sub_exp_sum_div_etc_1" kind attention
// KERNEL: kf.kernel "attention_matmul_mul_where_max_sub_exp_sum_div_etc_2" kind attention
// CHECK: masked (1, 1) ok
// CHECK: masked (16, 31) ok
// CHECK: masked (17, 32) ok
// CHECK: masked (70, 33) ok
// CHECK: masked (5, 70) ok
// CHECK: heads ok
// CHECK: safe ok

func.func @masked(%q: tensor<2x?x8xf32>, %k: tensor<2x?x8xf32>, %v: tensor<2x?x4xf32>,
                  %mask: tensor<?x?xf32>) -> tensor<2x?x4xf32> {
  %kt = kf.transpose %k [0, 2, 1] : tensor<2x?x8xf32>
  %s = kf.matmul %q, %kt : tensor<2x?x8xf32>, tensor<2x8x?xf32>
  %scale = kf.constant dense<0.35355339> : tensor<f32>
  %scaled = kf.mul %s, %scale : tensor<2x?x?xf32>, tensor<f32>
  %a = kf.add %scaled, %mask : tensor<2x?x?xf32>, tensor<?x?xf32>
  %p = kf.softmax %a dim -1 : tensor<2x?x?xf32>
  %o = kf.matmul %p, %v : tensor<2x?x?xf32>, tensor<2x?x4xf32>
  return %o : tensor<2x?x4xf32>
}

// GPT-2's head split and merge around the kernel (test/Fusion/attention.mlir).
func.func @heads(%qkv: tensor<2x16x96xf32>, %mask: tensor<16x16xf32>) -> tensor<2x16x32xf32> {
  %q0 = kf.slice %qkv starts [0, 0, 0] ends [9223372036854775807, 9223372036854775807, 32] steps [1, 1, 1] : tensor<2x16x96xf32>
  %k0 = kf.slice %qkv starts [0, 0, 32] ends [9223372036854775807, 9223372036854775807, 64] steps [1, 1, 1] : tensor<2x16x96xf32>
  %v0 = kf.slice %qkv starts [0, 0, 64] ends [9223372036854775807, 9223372036854775807, 96] steps [1, 1, 1] : tensor<2x16x96xf32>
  %q1 = kf.reshape %q0 [2, 16, 4, 8] : tensor<2x16x32xf32>
  %q = kf.transpose %q1 [0, 2, 1, 3] : tensor<2x16x4x8xf32>
  %k1 = kf.reshape %k0 [2, 16, 4, 8] : tensor<2x16x32xf32>
  %k = kf.transpose %k1 [0, 2, 1, 3] : tensor<2x16x4x8xf32>
  %v1 = kf.reshape %v0 [2, 16, 4, 8] : tensor<2x16x32xf32>
  %v = kf.transpose %v1 [0, 2, 1, 3] : tensor<2x16x4x8xf32>
  %kt = kf.transpose %k [0, 1, 3, 2] : tensor<2x4x16x8xf32>
  %s = kf.matmul %q, %kt : tensor<2x4x16x8xf32>, tensor<2x4x8x16xf32>
  %scale = kf.constant dense<2.828> : tensor<f32>
  %d = kf.div %s, %scale : tensor<2x4x16x16xf32>, tensor<f32>
  %a = kf.add %d, %mask : tensor<2x4x16x16xf32>, tensor<16x16xf32>
  %p = kf.softmax %a dim -1 : tensor<2x4x16x16xf32>
  %o = kf.matmul %p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>
  %ot = kf.transpose %o [0, 2, 1, 3] : tensor<2x4x16x8xf32>
  %oc = kf.contiguous %ot : tensor<2x16x4x8xf32>
  %y = kf.reshape %oc [2, 16, 32] : tensor<2x16x4x8xf32>
  return %y : tensor<2x16x32xf32>
}

// F.scaled_dot_product_attention with a bool mask as kfuse-import writes
// it: PyTorch's safe softmax, a query whose keys are all masked gives
// zeros (not NaN).
func.func @safe(%q: tensor<2x16x8xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x16x8xf32>,
                %m: tensor<2x16x16xi1>) -> tensor<2x16x8xf32> {
  %kt = kf.transpose %k [0, 2, 1] : tensor<2x16x8xf32>
  %s = kf.matmul %q, %kt : tensor<2x16x8xf32>, tensor<2x8x16xf32>
  %c = kf.constant dense<0.25> : tensor<f32>
  %sc = kf.mul %s, %c : tensor<2x16x16xf32>, tensor<f32>
  %ninf = kf.constant dense<0xFF800000> : tensor<f32>
  %x = kf.where %m, %sc, %ninf : tensor<2x16x16xi1>, tensor<2x16x16xf32>, tensor<f32>
  %p = kf.softmax %x dim 2 : tensor<2x16x16xf32>
  %rm = kf.max %x dims [2] keepdim : tensor<2x16x16xf32>
  %h = kf.eq %rm, %ninf : tensor<2x16x1xf32>, tensor<f32>
  %zero = kf.constant dense<0.0> : tensor<f32>
  %sp = kf.where %h, %zero, %p : tensor<2x16x1xi1>, tensor<f32>, tensor<2x16x16xf32>
  %o = kf.matmul %sp, %v : tensor<2x16x16xf32>, tensor<2x16x8xf32>
  return %o : tensor<2x16x8xf32>
}
