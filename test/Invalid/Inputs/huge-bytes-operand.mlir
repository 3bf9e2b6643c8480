// 2^31 x 2^31 f32 elements fit in int64, their 2^64 bytes do not.
func.func @f(%a: tensor<2147483648x2147483648xf32>) -> tensor<2147483648x2147483648xf32> {
  %0 = kf.relu %a : tensor<2147483648x2147483648xf32>
  return %0 : tensor<2147483648x2147483648xf32>
}
