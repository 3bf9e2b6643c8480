// Negating a bool tensor is refused by PyTorch.
func.func @neg_bool(%a: tensor<8xi1>) {
  %0 = kf.neg %a : tensor<8xi1>
  return
}
