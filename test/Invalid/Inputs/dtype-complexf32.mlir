func.func @f(%a: tensor<4xcomplex<f32>>) {
  %0 = kf.neg %a : tensor<4xcomplex<f32>>
  return
}
