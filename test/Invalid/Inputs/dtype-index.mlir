func.func @f(%a: tensor<4xindex>) {
  %0 = kf.neg %a : tensor<4xindex>
  return
}
