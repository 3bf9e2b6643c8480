// A kernel computes tensors.
func.func @scalar_result(%x: f32) -> f32 {
  %0 = kf.kernel "k_0" kind pointwise -> f32 {
    kf.yield %x : f32
  }
  return %0 : f32
}
