// A full reduction of a million elements: two launches on the GPU.
func.func @total(%x: tensor<1000000xf32>) -> tensor<f32> {
  %s = kf.sum %x : tensor<1000000xf32>
  return %s : tensor<f32>
}
