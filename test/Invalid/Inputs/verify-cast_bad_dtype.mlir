// cast to a dtype kf does not support.
func.func @cast_bad_dtype(%a: tensor<8xf32>) {
  %0 = kf.cast %a : tensor<8xf32> to i8
  return
}
