// softmax(x, -1).t().contiguous() over R rows of C: ${T}, the result
// C x R. A template (gpu_bench.py; families softmax_t and, built with
// --fusion=transposed-epilogue=false, softmax_t_unfused).
func.func @${NAME}(%x: tensor<${R}x${C}x${T}>) -> tensor<${C}x${R}x${T}> {
  %s = kf.softmax %x dim 1 : tensor<${R}x${C}x${T}>
  %t = kf.transpose %s [1, 0] : tensor<${R}x${C}x${T}>
  %c = kf.contiguous %t : tensor<${C}x${R}x${T}>
  return %c : tensor<${C}x${R}x${T}>
}
