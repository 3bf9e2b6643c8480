// The bias has the input's dtype.
func.func @layer_norm_bias_dtype(%a: tensor<4x8xf32>, %b: tensor<8xf16>) {
  %0 = kf.layer_norm %a bias %b : tensor<8xf16> normalized_shape [8] eps 1.0e-05 : tensor<4x8xf32>
  return
}
