// relu of bool is refused.
func.func @relu_bool(%a: tensor<8xi1>) {
  %0 = kf.relu %a : tensor<8xi1>
  return
}
