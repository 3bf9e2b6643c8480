// expand can only stretch size-1 dims: 3 -> 4 is refused.
func.func @broadcast_to_bad(%a: tensor<3xf32>) {
  %0 = kf.broadcast_to %a [2, 4] : tensor<3xf32>
  return
}
