// Unranked tensors are not kf operands.
func.func @unranked(%a: tensor<*xf32>) {
  %0 = kf.exp %a : tensor<*xf32>
  return
}
