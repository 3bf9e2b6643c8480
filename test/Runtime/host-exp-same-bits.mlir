// An exp on the CPU gives the same bits whichever kernel fusion puts it in
// (issue 29: before, row kernels had a vector polynomial and every other
// kernel libm's expf, a call a lane). The same exp of the same inputs
// through three host code paths: a pointwise kernel (whole vectors, and a
// scalar tail: 1003 columns), a row kernel's vector pass (exp feeding a
// sum, the exp also returned), and a pointwise kernel with a broadcast
// operand (every element scalar: x + 0 is x exactly). All three must be
// equal bit for bit, and within 1.01 ulp of numpy's float64 exp (the
// bound docs/reference/accuracy.md states), -inf giving 0, inf inf, NaN NaN,
// subnormal results near float64's, and 0 below -104 (those lanes compute
// exp(0): a subnormal product costs x86 a microcode assist a lane).
// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-compile %s --emit=lib -o %t/p.so
// RUN: %python %s.py %t kfuse-run | FileCheck %s

// CHECK: pointwise and row: same bits
// CHECK: pointwise and broadcast: same bits
// CHECK: within 1.01 ulp of float64 exp: yes
// CHECK: specials: ok
// CHECK: subnormals: ok

func.func @pointwise_exp(%x: tensor<5x1003xf32>) -> tensor<5x1003xf32> {
  %y = kf.exp %x : tensor<5x1003xf32>
  return %y : tensor<5x1003xf32>
}

func.func @row_exp(%x: tensor<5x1003xf32>) -> (tensor<5x1003xf32>, tensor<5xf32>) {
  %y = kf.exp %x : tensor<5x1003xf32>
  %s = kf.sum %y dims [1] : tensor<5x1003xf32>
  return %y, %s : tensor<5x1003xf32>, tensor<5xf32>
}

func.func @broadcast_exp(%x: tensor<5x1003xf32>, %z: tensor<5x1xf32>) -> tensor<5x1003xf32> {
  %a = kf.add %x, %z : tensor<5x1003xf32>, tensor<5x1xf32>
  %y = kf.exp %a : tensor<5x1003xf32>
  return %y : tensor<5x1003xf32>
}
