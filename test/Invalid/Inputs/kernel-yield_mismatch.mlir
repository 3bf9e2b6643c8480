// The yielded values must be the kernel's results.
func.func @yield_mismatch(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kf.kernel "k_0" kind pointwise -> tensor<4xf32> {
    kf.yield %x, %x : tensor<4xf32>, tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
