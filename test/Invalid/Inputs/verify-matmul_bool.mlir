// matmul of bools is refused.
func.func @matmul_bool(%a: tensor<4x8xi1>, %b: tensor<8x2xi1>) {
  %0 = kf.matmul %a, %b : tensor<4x8xi1>, tensor<8x2xi1>
  return
}
