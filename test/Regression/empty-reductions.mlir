// Issue 13, items 5 and 6. Static empty reductions and a K = 0 matmul could
// not be compiled ("kernel 'reduction_sum_0' is not a row kernel",
// "'matmul_0' is not a matmul kernel"): over nothing the reduction does no
// iteration and upstream's canonicalization erased it, leaving its kernel
// without the op the mapping looks for. What is left now maps as a
// pointwise kernel. Numbers against numpy: the sum over nothing is 0, the
// mean NaN, the K = 0 product 0; a max over a dynamic dim that is 0 at run
// time stops with an error (torch.amax raises).

// RUN: kfuse-compile %s --emit=ptx -o - | FileCheck %s --check-prefix=PTX
// PTX-DAG: .entry matmul_relu_{{[0-9]+}}(
// PTX-DAG: .entry reduction_sum_{{[0-9]+}}(
// PTX-DAG: .entry reduction_mean_{{[0-9]+}}(

// RUN: %run-check %s --entry k0 --input "arg0=f32[3x0]" --input "arg1=f32[0x4]" \
// RUN:   --expect "np.maximum(arg0 @ arg1, 0)" -- --device=cpu --repeat=0 --check | FileCheck %s
// RUN: %run-check %s --entry sum_mean --input "arg0=f32[0x5]" \
// RUN:   --expect "arg0.sum(0)" --expect "np.full(5, np.nan, np.float32)" -- --device=cpu --repeat=0 --check | FileCheck %s
// CHECK: matches numpy

// RUN: not kfuse-run %s --entry max_dynamic --dim d0=0 --device=cpu --repeat=0 2>&1 | FileCheck %s --check-prefix=MAX
// MAX: kf.max: max and min of an empty dim have no value

func.func @k0(%a: tensor<3x0xf32>, %b: tensor<0x4xf32>) -> tensor<3x4xf32> {
  %0 = kf.matmul %a, %b : tensor<3x0xf32>, tensor<0x4xf32>
  %1 = kf.relu %0 : tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}

func.func @sum_mean(%a: tensor<0x5xf32>) -> (tensor<5xf32>, tensor<5xf32>) {
  %0 = kf.sum %a dims [0] : tensor<0x5xf32>
  %1 = kf.mean %a dims [0] : tensor<0x5xf32>
  return %0, %1 : tensor<5xf32>, tensor<5xf32>
}

func.func @max_dynamic(%a: tensor<2x?xf32>) -> tensor<2xf32> {
  %0 = kf.max %a dims [1] : tensor<2x?xf32>
  return %0 : tensor<2xf32>
}
