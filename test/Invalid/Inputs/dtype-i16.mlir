func.func @f(%a: tensor<4xi16>) {
  %0 = kf.neg %a : tensor<4xi16>
  return
}
