// The same dim twice (1 and -1 name the same dim of a rank-2 tensor).
func.func @sum_dim_twice(%a: tensor<4x8xf32>) {
  %0 = kf.sum %a dims [1, -1] : tensor<4x8xf32>
  return
}
