func.func @f(%a: tensor<8xf32>) {
  %0 = kf.sum %a dims [x] : tensor<8xf32>
  return
}
