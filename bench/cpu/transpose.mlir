// x.t().contiguous() of an R x C matrix: one copy kernel.
// A template: bench/cpu_compare.py fills in the sizes (Python string.Template).
func.func @transpose(%x: tensor<${R}x${C}xf32>) -> tensor<${C}x${R}xf32> {
  %t = kf.transpose %x [1, 0] : tensor<${R}x${C}xf32>
  %c = kf.contiguous %t : tensor<${C}x${R}xf32>
  return %c : tensor<${C}x${R}xf32>
}
