func.func @f(%a: tensor<5xi32>, %b: tensor<6xi32>) {
  %0 = kf.lt %a, %b : tensor<5xi32>, tensor<6xi32>
  return
}
