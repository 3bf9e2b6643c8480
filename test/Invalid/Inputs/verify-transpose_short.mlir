// A permutation must name every dim.
func.func @transpose_short(%a: tensor<4x8xf32>) {
  %0 = kf.transpose %a [0] : tensor<4x8xf32>
  return
}
