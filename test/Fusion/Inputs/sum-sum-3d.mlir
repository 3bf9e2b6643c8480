// x.sum(0).sum(0) of a 3-D x: one sum over dims [0, 1] when fused
// (reduction-chain-merge.mlir checks it against numpy).
func.func @sum_sum(%x: tensor<60x50x7xf32>) -> tensor<7xf32> {
  %a = kf.sum %x dims [0] : tensor<60x50x7xf32>
  %s = kf.sum %a dims [0] : tensor<50x7xf32>
  return %s : tensor<7xf32>
}
