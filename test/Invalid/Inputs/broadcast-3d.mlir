func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x4xf32>) {
  %0 = kf.mul %a, %b : tensor<2x3x4xf32>, tensor<2x4x4xf32>
  return
}
