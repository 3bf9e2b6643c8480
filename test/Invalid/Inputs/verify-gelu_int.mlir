// gelu is defined for floating types only.
func.func @gelu_int(%a: tensor<8xi32>) {
  %0 = kf.gelu %a : tensor<8xi32>
  return
}
