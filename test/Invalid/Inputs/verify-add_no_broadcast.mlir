// Static dims 4 and 3 are neither equal nor 1: PyTorch refuses this add.
func.func @add_no_broadcast(%a: tensor<4x8xf32>, %b: tensor<3x1xf32>) {
  %0 = kf.add %a, %b : tensor<4x8xf32>, tensor<3x1xf32>
  return
}
