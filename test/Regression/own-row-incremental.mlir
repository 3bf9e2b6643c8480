// Kernel formation checks that a row kernel reads each reduction's value at
// its own row (the own-row rule) incrementally: a group remembers the row
// dims its nodes had at its last merge, and a merge with a later group
// checks only that group's nodes (issue 27, item 13: a 1,000-op row
// kernel rescanned the whole kernel at each of its 3,400 merges). Here
// the sum and sub form a group first; exp joins it by the incremental
// check, and add, which reads exp's value transposed (row j's value in
// row i), must still be refused from the row kernel by it; with exp's own
// row (d[i, j]) it joins.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// CHECK-LABEL: function @later_other_row
// CHECK: kernels 4 2
// CHECK: reduction_sum_sub_exp_0 (reduction): ops sum, sub, exp
// CHECK: pointwise_add_1 (pointwise): ops add
// CHECK: (exp -> add): other-row: reads the reduction's value of another row
// CHECK-LABEL: function @later_own_row
// CHECK: kernels 4 1
// CHECK: (reduction): ops sum, sub, exp, add
// CHECK: boundaries: none
// The numbers, against numpy.
// RUN: kfuse-compile %s --emit=lib -o %t.so
// RUN: %run-check %t.so --input "arg0=f32[64,64]" \
// RUN:   --expect "np.exp(arg0 - arg0.sum(1, keepdims=True)) + np.exp(arg0 - arg0.sum(1, keepdims=True)).T" \
// RUN:   -- --entry later_other_row --device=cpu --repeat=0 | FileCheck %s --check-prefix=NUMBERS
// RUN: %run-check %t.so --input "arg0=f32[64,64]" \
// RUN:   --expect "np.exp(arg0 - arg0.sum(1, keepdims=True)) + (arg0 - arg0.sum(1, keepdims=True))" \
// RUN:   -- --entry later_own_row --device=cpu --repeat=0 | FileCheck %s --check-prefix=NUMBERS
// NUMBERS: run_check: result0 float32[64, 64] matches numpy
func.func @later_other_row(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %s = kf.sum %a dims [1] keepdim : tensor<64x64xf32>
  %d = kf.sub %a, %s : tensor<64x64xf32>, tensor<64x1xf32>
  %e = kf.exp %d : tensor<64x64xf32>
  %t = kf.transpose %e [1, 0] : tensor<64x64xf32>
  %y = kf.add %e, %t : tensor<64x64xf32>, tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
func.func @later_own_row(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %s = kf.sum %a dims [1] keepdim : tensor<64x64xf32>
  %d = kf.sub %a, %s : tensor<64x64xf32>, tensor<64x1xf32>
  %e = kf.exp %d : tensor<64x64xf32>
  %y = kf.add %e, %d : tensor<64x64xf32>, tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
