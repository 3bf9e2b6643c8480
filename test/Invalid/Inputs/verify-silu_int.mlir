// silu is defined for floating types only.
func.func @silu_int(%a: tensor<8xi64>) {
  %0 = kf.silu %a : tensor<8xi64>
  return
}
