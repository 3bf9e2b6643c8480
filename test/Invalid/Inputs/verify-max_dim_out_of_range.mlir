// A negative reduction dim beyond the rank.
func.func @max_dim_out_of_range(%a: tensor<4x8xf32>) {
  %0 = kf.max %a dims [-3] : tensor<4x8xf32>
  return
}
