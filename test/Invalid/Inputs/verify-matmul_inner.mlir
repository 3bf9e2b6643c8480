// matmul: 8 columns against 7 rows.
func.func @matmul_inner(%a: tensor<4x8xf32>, %b: tensor<7x16xf32>) {
  %0 = kf.matmul %a, %b : tensor<4x8xf32>, tensor<7x16xf32>
  return
}
