// Programs of transposed-epilogue.mlir run by kfuse-run against numpy.
func.func @softmax_t(%x: tensor<1001x61xf32>) -> tensor<61x1001xf32> {
  %s = kf.softmax %x dim 1 : tensor<1001x61xf32>
  %t = kf.transpose %s [1, 0] : tensor<1001x61xf32>
  %c = kf.contiguous %t : tensor<61x1001xf32>
  return %c : tensor<61x1001xf32>
}
func.func @layer_norm_t(%x: tensor<?x300xf32>) -> tensor<300x?xf32> {
  %s = kf.layer_norm %x normalized_shape [300] eps 1.0e-5 : tensor<?x300xf32>
  %t = kf.transpose %s [1, 0] : tensor<?x300xf32>
  %c = kf.contiguous %t : tensor<300x?xf32>
  return %c : tensor<300x?xf32>
}
func.func @three_dims(%x: tensor<5x37x19xf32>) -> tensor<19x5x37xf32> {
  %s = kf.softmax %x dim 2 : tensor<5x37x19xf32>
  %t = kf.transpose %s [2, 0, 1] : tensor<5x37x19xf32>
  %e = kf.exp %t : tensor<19x5x37xf32>
  return %e : tensor<19x5x37xf32>
}
func.func @sum_beside_transpose(%x: tensor<333x300xf32>) -> (tensor<333xf32>, tensor<300x333xf32>) {
  %s = kf.sum %x dims [1] : tensor<333x300xf32>
  %t = kf.transpose %x [1, 0] : tensor<333x300xf32>
  %c = kf.contiguous %t : tensor<300x333xf32>
  return %s, %c : tensor<333xf32>, tensor<300x333xf32>
}
