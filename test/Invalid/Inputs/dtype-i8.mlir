func.func @f(%a: tensor<4xi8>) {
  %0 = kf.neg %a : tensor<4xi8>
  return
}
