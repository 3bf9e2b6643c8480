// The weight has the normalized shape.
func.func @layer_norm_weight(%a: tensor<4x8xf32>, %w: tensor<4xf32>) {
  %0 = kf.layer_norm %a weight %w : tensor<4xf32> normalized_shape [8] eps 1.0e-05 : tensor<4x8xf32>
  return
}
