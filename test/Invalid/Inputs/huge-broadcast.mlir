func.func @f(%a: tensor<4611686018427387904x1xf32>, %b: tensor<1x8xf32>) {
  %0 = kf.add %a, %b : tensor<4611686018427387904x1xf32>, tensor<1x8xf32>
  return
}
