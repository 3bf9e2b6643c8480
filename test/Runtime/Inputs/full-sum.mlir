// A full reduction of a million elements: one launch on the GPU (977 blocks, the last combines their partials).
func.func @total(%x: tensor<1000000xf32>) -> tensor<f32> {
  %s = kf.sum %x : tensor<1000000xf32>
  return %s : tensor<f32>
}
