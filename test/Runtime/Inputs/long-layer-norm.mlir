// layer_norm over rows of a million (test/Runtime/accurate-sums.mlir).
func.func @layer_norm(%x: tensor<2x1000000xf32>) -> tensor<2x1000000xf32> {
  %n = kf.layer_norm %x normalized_shape [1000000] eps 1.0e-05 : tensor<2x1000000xf32>
  return %n : tensor<2x1000000xf32>
}
