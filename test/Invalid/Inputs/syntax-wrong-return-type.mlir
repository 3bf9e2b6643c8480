func.func @f(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.add %a, %b : tensor<8xf32>, tensor<8xf32>
  %1 = kf.relu %0 : tensor<8xf32>
  return %1 : tensor<8xf64>
}
