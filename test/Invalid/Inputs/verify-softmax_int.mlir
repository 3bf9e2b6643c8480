// softmax is for floating types.
func.func @softmax_int(%a: tensor<4x8xi32>) {
  %0 = kf.softmax %a dim 1 : tensor<4x8xi32>
  return
}
