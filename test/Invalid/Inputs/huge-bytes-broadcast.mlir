// [2^31, 1] + [1, 2^31] broadcasts to 2^62 f32 elements: 2^64 bytes.
func.func @f(%a: tensor<2147483648x1xf32>, %b: tensor<1x2147483648xf32>) {
  %0 = kf.add %a, %b : tensor<2147483648x1xf32>, tensor<1x2147483648xf32>
  return
}
