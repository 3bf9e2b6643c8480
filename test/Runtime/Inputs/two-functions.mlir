// Two entry points: kfuse-run needs --entry.
func.func @scale(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.add %x, %x : tensor<8xf32>, tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @negate(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.neg %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}
