// softmax over a dim that does not exist.
func.func @softmax_dim(%a: tensor<4x8xf32>) {
  %0 = kf.softmax %a dim 2 : tensor<4x8xf32>
  return
}
