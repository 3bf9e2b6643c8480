// A row reduction's kernel takes the elementwise ops after it that iterate
// over its rows x columns in another order, when each of their elements
// reads the values of one row (the transposed-epilogue rule; issue 26's
// `x.softmax(1).t().contiguous()`, which tinygrad makes one kernel): the op
// iterates in the reduction's order (linalg::interchangeGenericOp), reads
// the row in place and writes its result through the permutation. Counts
// argued by hand: fused, the kernel reads x and writes the transposed
// result; without the rule the row kernel writes its result and a second
// kernel reads it back to transpose it.
// RUN: kfuse-opt %s -split-input-file --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-kernel-report=transposed-epilogue=false -o /dev/null | FileCheck %s --check-prefix=OFF
// Each decision is a remark: the transposing op's edge is fused by the rule.
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --remarks-filter-passed=kf-form-kernels -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: Function=softmax_t | Reason="fused (transposed-epilogue)", Remark="div -> contiguous fused into reduction_max_sub_exp_sum_div_contiguous_0"
// The formed op iterates in the rows' order and writes [j, i]:
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels | FileCheck %s --check-prefix=FORM
// Results: CPU and the emulated GPU row kernels (blocks in order and from
// the last) against the unfused run.
// RUN: %fusion-diff %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-6 --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-6 --candidate=--kf-gpu-emulation-reversed-pipeline %s
// And against numpy in float64 (independent), run fused through kfuse-run
// on the CPU, whose row kernel stages 16 rows and writes them out 16 x 8
// at a time, in blocks of whole groups: 1001 x 61 is 8 blocks of 128 rows
// (the last 105: 6 groups and 9 rows), 61 columns (7 vectors of 8 and 5);
// 777 x 300 is 13 blocks of 64 (the last 9 rows). softmax's values are in (0, 1) with an
// f32 error of a few ulps (1e-7 relative): rtol 1e-5. layer_norm's
// outputs are O(1) with an absolute f32 error of a few ulps of the row's
// scale (about 1e-6 for 300 normal values): atol 1e-5.
// RUN: %run-check %S/Inputs/transposed-epilogue-run.mlir --input "arg0=f32[1001x61]" \
// RUN:   --expect "softmax(arg0.astype(np.float64), 1).T" --rtol=1e-5 --atol=0 \
// RUN:   -- --entry=softmax_t --device=cpu --repeat=2 --check | FileCheck %s --check-prefix=NUMPY
// RUN: %run-check %S/Inputs/transposed-epilogue-run.mlir --input "arg0=f32[777x300]" \
// RUN:   --expect "((lambda x: (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5))(arg0.astype(np.float64))).T" \
// RUN:   --rtol=0 --atol=1e-5 -- --entry=layer_norm_t --device=cpu --repeat=2 --check | FileCheck %s --check-prefix=NUMPY
// RUN: %run-check %S/Inputs/transposed-epilogue-run.mlir --input "arg0=f32[5x37x19]" \
// RUN:   --expect "np.exp(softmax(arg0.astype(np.float64), 2).transpose(2, 0, 1))" --rtol=1e-5 --atol=0 \
// RUN:   -- --entry=three_dims --device=cpu --repeat=2 --check | FileCheck %s --check-prefix=NUMPY
// The sum of 300 normal values in f32, compensated: within a few ulps of
// its magnitude (about 20): atol 1e-4; the copy is exact.
// RUN: %run-check %S/Inputs/transposed-epilogue-run.mlir --input "arg0=f32[333x300]" \
// RUN:   --expect "arg0.astype(np.float64).sum(1)" --expect "arg0.T" --rtol=0 --atol=1e-4 \
// RUN:   -- --entry=sum_beside_transpose --device=cpu --repeat=2 --check | FileCheck %s --check-prefix=NUMPY
// NUMPY: check against the CPU, unfused: {{.*}}: ok
// NUMPY: run_check: result0 {{.*}} matches numpy
// The host kernel turns each staged 16 x 8 tile in registers and stores
// vectors of 16 consecutive rows down each column, not lane by lane.
// RUN: kfuse-opt %S/Inputs/transposed-epilogue-run.mlir --kf-host-runtime-pipeline \
// RUN:   --mlir-print-ir-after=kf-map-kernels-to-host -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOST
// HOST-LABEL: func.func @softmax_t
// HOST: vector.transpose {{.*}} [1, 0] : vector<16x8xf32> to vector<8x16xf32>
// HOST: vector.maskedstore {{.*}} : memref<61x1001xf32>, vector<16xi1>, vector<16xf32>
// HOST-NOT: vector.scatter

// x [64, 32]: eager max (2048 in, 64 out), sub (2048 + 64, 2048), exp
// (2048, 2048), sum (2048, 64), div (2048 + 64, 2048), contiguous (2048,
// 2048): 20736 elements in 14 transfers. Fused: x in, the transposed
// result out, 4096 in 2; the rule off: 8192 in 4.
// CHECK-LABEL: function @softmax_t
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 6 1
// CHECK-NEXT: transfers 14 2
// CHECK-NEXT: elements 20736 4096
// CHECK: reduction_max_sub_exp_sum_div_contiguous_{{[0-9]+}} (reduction): ops max, sub, exp, sum, div, contiguous
// CHECK: runs as row
// CHECK: boundaries: none
// OFF-LABEL: function @softmax_t
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 6 2
// OFF-NEXT: transfers 14 4
// OFF-NEXT: elements 20736 8192
// OFF: (div -> contiguous): rule-disabled: transposed-epilogue=false
// FORM-LABEL: func.func @softmax_t
// FORM: kf.kernel "reduction_max_sub_exp_sum_div_contiguous_{{[0-9]+}}" kind reduction
// FORM: linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ROW:map[0-9]*]], #[[T:map[0-9]*]]], iterator_types = ["parallel", "parallel"]} ins({{.*}} : tensor<64x32xf32>, tensor<64xf32>) outs({{.*}} : tensor<32x64xf32>)
// FORM: arith.divf
func.func @softmax_t(%x: tensor<64x32xf32>) -> tensor<32x64xf32> {
  %s = kf.softmax %x dim 1 : tensor<64x32xf32>
  %t = kf.transpose %s [1, 0] : tensor<64x32xf32>
  %c = kf.contiguous %t : tensor<32x64xf32>
  return %c : tensor<32x64xf32>
}

// -----

// Square: the sizes do not tell the order; the read of each row's values
// does. Eager as above with 256 elements and 16 rows: 272 + 528 + 512 +
// 272 + 528 + 512 = 2624; fused 256 + 256.
// CHECK-LABEL: function @softmax_t_square
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 6 1
// CHECK-NEXT: transfers 14 2
// CHECK-NEXT: elements 2624 512
// OFF-LABEL: function @softmax_t_square
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 6 2
func.func @softmax_t_square(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %s = kf.softmax %x dim 1 : tensor<16x16xf32>
  %t = kf.transpose %s [1, 0] : tensor<16x16xf32>
  %c = kf.contiguous %t : tensor<16x16xf32>
  return %c : tensor<16x16xf32>
}

// -----

// layer_norm over the last of three dims, permuted [2, 0, 1]: the rows
// [4, 8] are the result's last two dims. x 512 elements in, 512 out.
// CHECK-LABEL: function @layer_norm_permuted
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 8 1
// CHECK-NEXT: transfers {{[0-9]+}} 2
// CHECK-NEXT: elements {{[0-9]+}} 1024
// OFF-LABEL: function @layer_norm_permuted
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 8 2
func.func @layer_norm_permuted(%x: tensor<4x8x16xf32>) -> tensor<16x4x8xf32> {
  %s = kf.layer_norm %x normalized_shape [16] eps 1.0e-5 : tensor<4x8x16xf32>
  %t = kf.transpose %s [2, 0, 1] : tensor<4x8x16xf32>
  %c = kf.contiguous %t : tensor<16x4x8xf32>
  return %c : tensor<16x4x8xf32>
}

// -----

// Ops after the transposing op read its result where it wrote it: the
// product (also returned) and its tanh are one op over [j, i] that both
// write. x and y in (2048 each), both results out: 8192 elements.
// CHECK-LABEL: function @softmax_t_chain
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 7 1
// CHECK-NEXT: transfers {{[0-9]+}} 4
// CHECK-NEXT: elements {{[0-9]+}} 8192
func.func @softmax_t_chain(%x: tensor<64x32xf32>, %y: tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
  %s = kf.softmax %x dim 1 : tensor<64x32xf32>
  %t = kf.transpose %s [1, 0] : tensor<64x32xf32>
  %e = kf.mul %t, %y : tensor<32x64xf32>, tensor<32x64xf32>
  %m = kf.tanh %e : tensor<32x64xf32>
  return %e, %m : tensor<32x64xf32>, tensor<32x64xf32>
}

// -----

// Not fused: `d + d.T` of d = x - x.sum(1) reads, at [i, j], row i's and
// row j's values: no block owns both.
// CHECK-LABEL: function @other_rows
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 2
// CHECK: other-row
func.func @other_rows(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %s = kf.sum %x dims [1] keepdim : tensor<16x16xf32>
  %d = kf.sub %x, %s : tensor<16x16xf32>, tensor<16x1xf32>
  %t = kf.transpose %d [1, 0] : tensor<16x16xf32>
  %a = kf.add %d, %t : tensor<16x16xf32>, tensor<16x16xf32>
  return %a : tensor<16x16xf32>
}

// -----

// Not fused: the softmax is also returned, so its kernel writes it once in
// place; a transpose that reads it back at other elements is a kernel of
// its own (not-in-place), as before.
// CHECK-LABEL: function @softmax_also_returned
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 6 2
// CHECK: (div -> contiguous): not-in-place
func.func @softmax_also_returned(%x: tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<32x64xf32>) {
  %s = kf.softmax %x dim 1 : tensor<64x32xf32>
  %t = kf.transpose %s [1, 0] : tensor<64x32xf32>
  %c = kf.contiguous %t : tensor<32x64xf32>
  return %s, %c : tensor<64x32xf32>, tensor<32x64xf32>
}

// -----

// Siblings: a row sum and a transposed copy of the same x are one kernel
// that reads x once (tinygrad: 1 kernel); the copy iterates in x's order
// and writes [j, i]. Eager: sum (2048 in, 64 out), contiguous (2048,
// 2048): 6208 elements in 4 transfers; fused: x in, both out, 4160 in 3.
// CHECK-LABEL: function @sum_beside_transpose
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 3
// CHECK-NEXT: elements 6208 4160
// OFF-LABEL: function @sum_beside_transpose
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 2 2
// FORM-LABEL: func.func @sum_beside_transpose
// FORM: kf.kernel "reduction_sum_contiguous_{{[0-9]+}}" kind reduction
// FORM: linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[T:map[0-9]*]]], iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<64x32xf32>) outs(%{{.*}} : tensor<32x64xf32>)
func.func @sum_beside_transpose(%x: tensor<64x32xf32>) -> (tensor<64xf32>, tensor<32x64xf32>) {
  %s = kf.sum %x dims [1] : tensor<64x32xf32>
  %t = kf.transpose %x [1, 0] : tensor<64x32xf32>
  %c = kf.contiguous %t : tensor<32x64xf32>
  return %s, %c : tensor<64xf32>, tensor<32x64xf32>
}

// -----

// The same with an op on the transposed view, on a square matrix (the
// sizes do not tell the order): 256 in, 16 + 256 out.
// CHECK-LABEL: function @max_beside_transposed_exp
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 3
// CHECK-NEXT: elements 784 528
func.func @max_beside_transposed_exp(%x: tensor<16x16xf32>) -> (tensor<16xf32>, tensor<16x16xf32>) {
  %s = kf.max %x dims [1] : tensor<16x16xf32>
  %t = kf.transpose %x [1, 0] : tensor<16x16xf32>
  %e = kf.exp %t : tensor<16x16xf32>
  return %s, %e : tensor<16xf32>, tensor<16x16xf32>
}

// -----

// A transposed read that feeds the reduction (a prologue) keeps the
// reduction's order: `x.t().exp().sum(1)` sums exp(x[j, i]) over j for
// each i. One kernel as before the rule, 256 in, 16 out.
// CHECK-LABEL: function @transposed_prologue
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 2
// CHECK-NEXT: elements 784 272
func.func @transposed_prologue(%x: tensor<16x16xf32>) -> tensor<16xf32> {
  %t = kf.transpose %x [1, 0] : tensor<16x16xf32>
  %e = kf.exp %t : tensor<16x16xf32>
  %s = kf.sum %e dims [1] : tensor<16x16xf32>
  return %s : tensor<16xf32>
}
