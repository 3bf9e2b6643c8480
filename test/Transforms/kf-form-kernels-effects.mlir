// Kernel formation moves a kernel to its last member; what reads it earlier
// moves after it. Ops with side effects keep their order: upstream's
// topological sort let the print of the mean overtake the print of the sum
// (found by test/Execution/accurate-reductions.mlir once a shared producer
// put both reductions in one kernel).
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels | FileCheck %s

// CHECK-LABEL: func.func @prints_in_order
// CHECK: %[[K:.*]]:2 = kf.kernel "reduction_exp_sum_mean_{{[0-9]+}}"
// CHECK: kf.yield
// CHECK: %[[S:.*]] = tensor.cast %[[K]]#0
// CHECK-NEXT: call @show(%[[S]])
// CHECK: %[[M:.*]] = tensor.cast %[[K]]#1
// CHECK-NEXT: call @show(%[[M]])
func.func private @show(tensor<*xf32>)
func.func @prints_in_order(%x: tensor<4x8xf32>) {
  %e = kf.exp %x : tensor<4x8xf32>
  %1 = kf.sum %e : tensor<4x8xf32>
  %u1 = tensor.cast %1 : tensor<f32> to tensor<*xf32>
  call @show(%u1) : (tensor<*xf32>) -> ()
  %2 = kf.mean %e : tensor<4x8xf32>
  %u2 = tensor.cast %2 : tensor<f32> to tensor<*xf32>
  call @show(%u2) : (tensor<*xf32>) -> ()
  return
}
