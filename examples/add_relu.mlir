// The article's second program: c = relu(a + b) on 1,000,000 floats.
// Eager PyTorch: 2 kernels and 5 array-sized transfers (the add writes tmp,
// the relu reads it back). Fused: 1 kernel and 3 transfers.
func.func @add_relu(%a: tensor<1000000xf32>, %b: tensor<1000000xf32>) -> tensor<1000000xf32> {
  %tmp = kf.add %a, %b : tensor<1000000xf32>, tensor<1000000xf32>
  %c = kf.relu %tmp : tensor<1000000xf32>
  return %c : tensor<1000000xf32>
}
