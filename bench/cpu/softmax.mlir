// torch.softmax(x, -1) over the rows of an R x C matrix.
// A template: bench/cpu_compare.py fills in the sizes (Python string.Template).
func.func @softmax(%x: tensor<${R}x${C}xf32>) -> tensor<${R}x${C}xf32> {
  %y = kf.softmax %x dim -1 : tensor<${R}x${C}xf32>
  return %y : tensor<${R}x${C}xf32>
}
