// GELU of 65536 f32 spread over [-16, 16] (kfuse-run's random inputs are
// uniform in [-2, 2]): 5.8% of them past x = -13, where erfc(-x / sqrt 2)
// is below 2^-126. Subnormal intermediates there cost x86 cores a microcode
// assist a vector; kfuse flushes them (passes/host/HostMathComplements.cpp).
//   KFUSE_NUM_THREADS=1 bash bench/ab-compilers.sh OLD/kfuse-compile build/bin/kfuse-compile 9 bench/host/*.mlir
func.func @gelu_wide(%x: tensor<512x128xf32>) -> tensor<512x128xf32> {
  %c = kf.constant dense<8.0> : tensor<f32>
  %s = kf.mul %x, %c : tensor<512x128xf32>, tensor<f32>
  %y = kf.gelu %s : tensor<512x128xf32>
  return %y : tensor<512x128xf32>
}
