func.func @f(%a: tensor<8xf32>) {
  %0 = kf.reshape %a : tensor<8xf32>
  return
}
