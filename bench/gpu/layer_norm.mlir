// torch.nn.functional.layer_norm(x, [C], eps=1e-5) without weight and bias,
// over the rows of an R x C matrix of ${T}. A template (gpu_bench.py).
func.func @${NAME}(%x: tensor<${R}x${C}x${T}>) -> tensor<${R}x${C}x${T}> {
  %y = kf.layer_norm %x normalized_shape [${C}] eps 1.0e-05 : tensor<${R}x${C}x${T}>
  return %y : tensor<${R}x${C}x${T}>
}
