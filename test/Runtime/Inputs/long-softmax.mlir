// softmax over rows of a million (test/Runtime/accurate-sums.mlir).
func.func @softmax(%x: tensor<2x1000000xf32>) -> tensor<2x1000000xf32> {
  %s = kf.softmax %x dim 1 : tensor<2x1000000xf32>
  return %s : tensor<2x1000000xf32>
}
