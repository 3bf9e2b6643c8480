// F.layer_norm(x, [C], eps=1e-5) over the rows of an R x C matrix, without
// weight and bias (the normalization itself; an affine would add one
// pointwise multiply-add that every framework fuses or not alike).
// A template: bench/cpu_compare.py fills in the sizes (Python string.Template).
func.func @layer_norm(%x: tensor<${R}x${C}xf32>) -> tensor<${R}x${C}xf32> {
  %y = kf.layer_norm %x normalized_shape [${C}] eps 1.0e-05 : tensor<${R}x${C}xf32>
  return %y : tensor<${R}x${C}xf32>
}
