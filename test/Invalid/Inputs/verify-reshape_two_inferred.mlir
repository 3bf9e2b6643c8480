// Only one dim may be inferred.
func.func @reshape_two_inferred(%a: tensor<8xf32>) {
  %0 = kf.reshape %a [-1, -1] : tensor<8xf32>
  return
}
