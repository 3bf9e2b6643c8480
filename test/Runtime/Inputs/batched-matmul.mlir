// A batched matmul (a linalg.generic, not linalg.matmul): no GPU code for
// it yet (the host runtime runs it).
func.func @bmm(%a: tensor<2x4x8xf32>, %b: tensor<2x8x3xf32>) -> tensor<2x4x3xf32> {
  %m = kf.matmul %a, %b : tensor<2x4x8xf32>, tensor<2x8x3xf32>
  return %m : tensor<2x4x3xf32>
}
