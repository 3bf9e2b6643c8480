// An f64 reduction: warp shuffles move 32 bits, so there is no GPU code
// for it yet (the host runtime runs it).
func.func @row_sum(%x: tensor<4x8xf64>) -> tensor<4xf64> {
  %s = kf.sum %x dims [1] : tensor<4x8xf64>
  return %s : tensor<4xf64>
}
