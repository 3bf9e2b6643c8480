// A reduction: runs on the CPU; the GPU mapping does not serve it yet.
func.func @row_sum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = kf.sum %x dims [1] : tensor<4x8xf32>
  return %0 : tensor<4xf32>
}
