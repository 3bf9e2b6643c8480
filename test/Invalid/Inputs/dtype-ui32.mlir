func.func @f(%a: tensor<4xui32>) {
  %0 = kf.neg %a : tensor<4xui32>
  return
}
