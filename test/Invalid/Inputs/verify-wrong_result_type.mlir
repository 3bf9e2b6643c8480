// A written result type that disagrees with inference is refused.
func.func @wrong_result_type(%a: tensor<4xf32>) {
  %0 = "kf.add"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf64>
  return
}
