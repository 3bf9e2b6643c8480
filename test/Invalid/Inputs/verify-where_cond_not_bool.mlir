// where's condition must be bool, as in torch.where.
func.func @where_cond_not_bool(%c: tensor<8xf32>, %a: tensor<8xf32>) {
  %0 = kf.where %c, %a, %a : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  return
}
