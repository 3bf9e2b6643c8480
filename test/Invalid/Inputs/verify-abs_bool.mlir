// abs of bool is refused.
func.func @abs_bool(%a: tensor<8xi1>) {
  %0 = kf.abs %a : tensor<8xi1>
  return
}
