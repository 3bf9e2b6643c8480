// Sizes below -1 mean nothing.
func.func @reshape_negative(%a: tensor<8xf32>) {
  %0 = kf.reshape %a [-2, -4] : tensor<8xf32>
  return
}
