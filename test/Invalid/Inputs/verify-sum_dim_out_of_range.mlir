// A reduction dim beyond the rank.
func.func @sum_dim_out_of_range(%a: tensor<4x8xf32>) {
  %0 = kf.sum %a dims [2] : tensor<4x8xf32>
  return
}
