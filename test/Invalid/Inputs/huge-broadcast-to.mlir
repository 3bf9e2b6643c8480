func.func @f(%a: tensor<8xf32>) {
  %0 = kf.broadcast_to %a [4611686018427387904, 8] : tensor<8xf32>
  return
}
