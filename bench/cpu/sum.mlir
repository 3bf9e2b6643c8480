// The sum of N floats, a 0-d result (x.sum()).
// A template: bench/cpu_compare.py fills in the sizes (Python string.Template).
func.func @sum(%x: tensor<${N}xf32>) -> tensor<f32> {
  %s = kf.sum %x : tensor<${N}xf32>
  return %s : tensor<f32>
}
