// torch.softmax(x, -1) over the rows of an R x C matrix of ${T}.
// A template: bench/gpu_bench.py --write-programs fills in NAME, R, C, T
// (Python string.Template), one function a benchmark row.
func.func @${NAME}(%x: tensor<${R}x${C}x${T}>) -> tensor<${R}x${C}x${T}> {
  %y = kf.softmax %x dim -1 : tensor<${R}x${C}x${T}>
  return %y : tensor<${R}x${C}x${T}>
}
