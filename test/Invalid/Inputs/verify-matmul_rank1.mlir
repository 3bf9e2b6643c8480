// 1-D operands are not supported by kf.matmul.
func.func @matmul_rank1(%a: tensor<8xf32>, %b: tensor<8x16xf32>) {
  %0 = kf.matmul %a, %b : tensor<8xf32>, tensor<8x16xf32>
  return
}
