func.func @broken(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.add %x, : tensor<8xf32>
  return %0 : tensor<8xf32>
}
