// tanh(x @ Wx^T + h @ Wh + b): an RNN cell, Wx read transposed in place;
// K = 300 and 90 (the host kernel's panels of 256: two, then one).
func.func @rnn_cell(%x: tensor<70x300xf32>, %wx: tensor<50x300xf32>, %h: tensor<70x90xf32>, %wh: tensor<90x50xf32>, %bias: tensor<50xf32>) -> tensor<70x50xf32> {
  %wxt = kf.transpose %wx [1, 0] : tensor<50x300xf32>
  %0 = kf.matmul %x, %wxt : tensor<70x300xf32>, tensor<300x50xf32>
  %1 = kf.matmul %h, %wh : tensor<70x90xf32>, tensor<90x50xf32>
  %2 = kf.add %0, %1 : tensor<70x50xf32>, tensor<70x50xf32>
  %3 = kf.add %2, %bias : tensor<70x50xf32>, tensor<50xf32>
  %4 = kf.tanh %3 : tensor<70x50xf32>
  return %4 : tensor<70x50xf32>
}
