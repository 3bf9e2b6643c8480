// torch.relu(a + b) of two vectors of ${T} of any length: one library for
// every n (the sizes come with the call). A template (gpu_bench.py).
func.func @${NAME}(%a: tensor<?x${T}>, %b: tensor<?x${T}>) -> tensor<?x${T}> {
  %0 = kf.add %a, %b : tensor<?x${T}>, tensor<?x${T}>
  %1 = kf.relu %0 : tensor<?x${T}>
  return %1 : tensor<?x${T}>
}
