// log_softmax over a dim that does not exist.
func.func @log_softmax_dim(%a: tensor<4x8xf32>) {
  %0 = kf.log_softmax %a dim -3 : tensor<4x8xf32>
  return
}
