// torch.cumsum(x, 1) of an R x C matrix: one scan kernel (a thread a line).
// A template: bench/cpu_compare.py fills in the sizes (Python string.Template).
func.func @cumsum_rows(%x: tensor<${R}x${C}xf32>) -> tensor<${R}x${C}xf32> {
  %c = kf.cumsum %x dim 1 : tensor<${R}x${C}xf32>
  return %c : tensor<${R}x${C}xf32>
}
