// Dim 2 does not exist in a rank-2 tensor.
func.func @transpose_out_of_range(%a: tensor<4x8xf32>) {
  %0 = kf.transpose %a [2, 0] : tensor<4x8xf32>
  return
}
