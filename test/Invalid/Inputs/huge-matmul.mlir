func.func @f(%a: tensor<4611686018427387904x2xf32>, %b: tensor<2x8xf32>) {
  %0 = kf.matmul %a, %b : tensor<4611686018427387904x2xf32>, tensor<2x8xf32>
  return
}
