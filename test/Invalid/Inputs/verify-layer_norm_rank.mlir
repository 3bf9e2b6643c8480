// normalized_shape cannot name more dims than the input has.
func.func @layer_norm_rank(%a: tensor<8xf32>) {
  %0 = kf.layer_norm %a normalized_shape [2, 8] eps 1.0e-05 : tensor<8xf32>
  return
}
