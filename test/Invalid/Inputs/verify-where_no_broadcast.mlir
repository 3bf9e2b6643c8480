// Trailing dims 8 and 7 do not broadcast, whatever the ranks.
func.func @where_no_broadcast(%c: tensor<8xi1>, %a: tensor<7xf32>, %b: tensor<f32>) {
  %0 = kf.where %c, %a, %b : tensor<8xi1>, tensor<7xf32>, tensor<f32>
  return
}
