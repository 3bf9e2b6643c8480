// relu(a @ b + c @ d) over a batch of 3, d broadcast over it; 37 rows (not
// a multiple of the host's 6-row register tile), 29 columns (not of 16).
func.func @batched(%a: tensor<3x37x70xf32>, %b: tensor<3x70x29xf32>, %c: tensor<3x37x20xf32>, %d: tensor<20x29xf32>) -> tensor<3x37x29xf32> {
  %0 = kf.matmul %a, %b : tensor<3x37x70xf32>, tensor<3x70x29xf32>
  %1 = kf.matmul %c, %d : tensor<3x37x20xf32>, tensor<20x29xf32>
  %2 = kf.add %0, %1 : tensor<3x37x29xf32>, tensor<3x37x29xf32>
  %3 = kf.relu %2 : tensor<3x37x29xf32>
  return %3 : tensor<3x37x29xf32>
}
