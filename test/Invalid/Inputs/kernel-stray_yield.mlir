// kf.yield only ends a kernel.
func.func @stray_yield(%x: tensor<4xf32>) {
  kf.yield %x : tensor<4xf32>
}
