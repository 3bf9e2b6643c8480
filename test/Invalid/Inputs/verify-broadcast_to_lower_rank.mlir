// expand cannot drop dims.
func.func @broadcast_to_lower_rank(%a: tensor<2x3xf32>) {
  %0 = kf.broadcast_to %a [3] : tensor<2x3xf32>
  return
}
