// i8 is not a kf dtype.
func.func @unsupported_dtype(%a: tensor<8xi8>) {
  %0 = kf.exp %a : tensor<8xi8>
  return
}
