// torch.matmul(a, b) of two N x N matrices of ${T} (f16 and bf16 accumulate
// in f32, as cuBLAS does). A template (gpu_bench.py).
func.func @${NAME}(%a: tensor<${N}x${N}x${T}>, %b: tensor<${N}x${N}x${T}>) -> tensor<${N}x${N}x${T}> {
  %c = kf.matmul %a, %b : tensor<${N}x${N}x${T}>, tensor<${N}x${N}x${T}>
  return %c : tensor<${N}x${N}x${T}>
}
