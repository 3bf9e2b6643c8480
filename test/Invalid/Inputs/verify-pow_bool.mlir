// pow on bools is refused.
func.func @pow_bool(%a: tensor<8xi1>) {
  %0 = kf.pow %a, %a : tensor<8xi1>, tensor<8xi1>
  return
}
