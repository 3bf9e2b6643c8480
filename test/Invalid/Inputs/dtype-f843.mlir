func.func @f(%a: tensor<4xf8E4M3FN>) {
  %0 = kf.neg %a : tensor<4xf8E4M3FN>
  return
}
