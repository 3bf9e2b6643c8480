// -1 cannot be inferred when the rest does not divide the count.
func.func @reshape_not_divisible(%a: tensor<8xf32>) {
  %0 = kf.reshape %a [3, -1] : tensor<8xf32>
  return
}
