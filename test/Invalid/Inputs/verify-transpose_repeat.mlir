// [0, 0] repeats a dim: not a permutation.
func.func @transpose_repeat(%a: tensor<4x8xf32>) {
  %0 = kf.transpose %a [0, 0] : tensor<4x8xf32>
  return
}
