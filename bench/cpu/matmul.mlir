// A square matmul, a @ b, N x N (no epilogue).
// A template: bench/cpu_compare.py fills in the sizes (Python string.Template).
func.func @matmul(%a: tensor<${N}x${N}xf32>, %b: tensor<${N}x${N}xf32>) -> tensor<${N}x${N}xf32> {
  %c = kf.matmul %a, %b : tensor<${N}x${N}xf32>, tensor<${N}x${N}xf32>
  return %c : tensor<${N}x${N}xf32>
}
