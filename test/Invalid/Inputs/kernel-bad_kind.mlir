// The kind is one of four.
func.func @bad_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kf.kernel "k_0" kind stencil -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
