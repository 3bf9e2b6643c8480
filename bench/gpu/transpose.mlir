// x.t().contiguous() of an N x N matrix of ${T}: the view materialized.
// A template (gpu_bench.py).
func.func @${NAME}(%x: tensor<${N}x${N}x${T}>) -> tensor<${N}x${N}x${T}> {
  %t = kf.transpose %x [1, 0] : tensor<${N}x${N}x${T}>
  %c = kf.contiguous %t : tensor<${N}x${N}x${T}>
  return %c : tensor<${N}x${N}x${T}>
}
