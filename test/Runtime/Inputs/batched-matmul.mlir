// A batched matmul (a linalg.generic, not linalg.matmul): the GPU mapping
// runs the batch as grid z.
func.func @bmm(%a: tensor<2x4x8xf32>, %b: tensor<2x8x3xf32>) -> tensor<2x4x3xf32> {
  %m = kf.matmul %a, %b : tensor<2x4x8xf32>, tensor<2x8x3xf32>
  return %m : tensor<2x4x3xf32>
}
