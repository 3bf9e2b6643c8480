// A negative eps makes no sense.
func.func @layer_norm_eps(%a: tensor<4x8xf32>) {
  %0 = kf.layer_norm %a normalized_shape [8] eps -1.0 : tensor<4x8xf32>
  return
}
