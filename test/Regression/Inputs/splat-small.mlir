// Splats above the 2^16-element limit, at sizes that run (huge-splat.mlir).
func.func @small_sum() -> tensor<f32> {
  %c = kf.constant dense<1.0> : tensor<131072xf32>
  %s = kf.sum %c : tensor<131072xf32>
  return %s : tensor<f32>
}

func.func @small_add(%x: tensor<100000xf32>) -> tensor<100000xf32> {
  %c = kf.constant dense<2.0> : tensor<100000xf32>
  %y = kf.add %x, %c : tensor<100000xf32>, tensor<100000xf32>
  return %y : tensor<100000xf32>
}
