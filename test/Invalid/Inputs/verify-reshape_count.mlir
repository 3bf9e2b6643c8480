// A reshape that changes the element count (8 -> 9).
func.func @reshape_count(%a: tensor<8xf32>) {
  %0 = kf.reshape %a [3, 3] : tensor<8xf32>
  return
}
