// A constant must be a kf tensor.
func.func @constant_bad_dtype() {
  %0 = kf.constant dense<[1, 2]> : tensor<2xi16>
  return
}
