// normalized_shape must match the trailing dims (8, not 4).
func.func @layer_norm_shape(%a: tensor<4x8xf32>) {
  %0 = kf.layer_norm %a normalized_shape [4] eps 1.0e-05 : tensor<4x8xf32>
  return
}
