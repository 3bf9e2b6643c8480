// Found by kf_fuzz.py (seed 3): the keepdim reshape of mean's result is read
// by the div in mean's kernel and by the matmul in another; left outside,
// it made mean's kernel read a value computed from its own result (a
// cycle). The kernel now gets its own copy of the reshape.
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels | FileCheck %s
// RUN: %fusion-diff %s

// CHECK-LABEL: func.func @shared_reshape
// CHECK: %[[R:.*]]:2 = kf.kernel "reduction_mean_div_{{[0-9]+}}"
// CHECK: tensor.expand_shape
// CHECK: kf.yield
// CHECK: kf.kernel "matmul_mul_{{[0-9]+}}"
// CHECK: %[[E:.*]] = tensor.expand_shape %[[R]]#0
// CHECK: linalg.matmul {{.*}}ins(%[[E]],
func.func @shared_reshape(%x: tensor<5x1xf32>, %w: tensor<1x3xf32>, %s: tensor<bf16>) -> tensor<1x3xf32> {
  %m = kf.mean %x dims [0, 1] keepdim : tensor<5x1xf32>
  %mm = kf.matmul %m, %w : tensor<1x1xf32>, tensor<1x3xf32>
  %d = kf.div %m, %s : tensor<1x1xf32>, tensor<bf16>
  %y = kf.mul %mm, %d : tensor<1x3xf32>, tensor<1x1xf32>
  return %y : tensor<1x3xf32>
}
