// The sum and the mean of a vector (test/Runtime/accurate-sums.mlir).
func.func @sum_mean(%x: tensor<?xf32>) -> (tensor<f32>, tensor<f32>) {
  %s = kf.sum %x : tensor<?xf32>
  %m = kf.mean %x : tensor<?xf32>
  return %s, %m : tensor<f32>, tensor<f32>
}
