// The article's first program: c = a + b on 1,000,000 floats.
// Eager PyTorch: 1 kernel, 3 array-sized transfers (read a, read b, write c).
func.func @add(%a: tensor<1000000xf32>, %b: tensor<1000000xf32>) -> tensor<1000000xf32> {
  %c = kf.add %a, %b : tensor<1000000xf32>, tensor<1000000xf32>
  return %c : tensor<1000000xf32>
}
