// relu(a + b) on N floats: one fused pointwise kernel (eager: 2 kernels).
// A template: bench/cpu_compare.py fills in the sizes (Python string.Template).
func.func @add_relu(%a: tensor<${N}xf32>, %b: tensor<${N}xf32>) -> tensor<${N}xf32> {
  %t = kf.add %a, %b : tensor<${N}xf32>, tensor<${N}xf32>
  %c = kf.relu %t : tensor<${N}xf32>
  return %c : tensor<${N}xf32>
}
