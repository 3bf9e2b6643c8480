// The program of test/Regression/reshape-broadcast-sum.mlir, alone, for kfuse-run.
func.func @f(%a: tensor<?xf32>) -> tensor<f32> {
  %0 = kf.reshape %a [-1, 1, 1] : tensor<?xf32>
  %1 = kf.add %0, %a : tensor<?x1x1xf32>, tensor<?xf32>
  %2 = kf.reshape %1 [-1] : tensor<?x1x?xf32>
  %3 = kf.sum %2 : tensor<?xf32>
  return %3 : tensor<f32>
}
