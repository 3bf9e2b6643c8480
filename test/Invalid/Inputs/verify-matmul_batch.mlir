// Batch dims 2 and 3 do not broadcast.
func.func @matmul_batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x16xf32>) {
  %0 = kf.matmul %a, %b : tensor<2x4x8xf32>, tensor<3x8x16xf32>
  return
}
