func.func @f() {
  %0 = kf.constant dense<[1.0, 2.0> : tensor<2xf32>
  return
}
