// Found by kf_fuzz.py (seed 1): two kernels whose members interleave in
// program order. max+cast+div (v7) ends after sub+exp+sum, which reads max:
// placing each kernel at its last member broke dominance. Kernels are now
// ordered topologically. Since a reduction over the leading dim read back
// over its column fuses (issue 12), softmax over dim 0 is one kernel and
// so is this program; without row-persistent the kernels interleave again.
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels=row-persistent=false | FileCheck %s
// RUN: %fusion-diff %s

// CHECK-LABEL: func.func @interleaved
// CHECK: %[[MAX:.*]]:2 = kf.kernel "reduction_cast_max_div_{{[0-9]+}}"
// CHECK: kf.kernel "reduction_cast_sub_exp_sum_{{[0-9]+}}"
// CHECK: ins(%{{.*}}, %[[MAX]]#0 :
func.func @interleaved(%arg1: tensor<5x5xi32>, %arg2: tensor<5xf32>) -> tensor<5x5xi1> {
  %v5 = kf.cast %arg1 : tensor<5x5xi32> to f32
  %v6 = kf.softmax %v5 dim 0 : tensor<5x5xf32>
  %v7 = kf.div %v5, %arg2 : tensor<5x5xf32>, tensor<5xf32>
  %v15 = kf.le %v7, %v6 : tensor<5x5xf32>, tensor<5x5xf32>
  return %v15 : tensor<5x5xi1>
}
