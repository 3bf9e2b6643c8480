// Rows of at most 64 columns run four at a time on the CPU (HostRows.cpp),
// a block's last rows one by one: 23 rows are five groups of four and
// three single rows.
func.func @softmax40(%x: tensor<23x40xf32>) -> tensor<23x40xf32> {
  %y = kf.softmax %x dim -1 : tensor<23x40xf32>
  return %y : tensor<23x40xf32>
}
func.func @layer_norm64(%x: tensor<29x64xf32>, %w: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<29x64xf32> {
  %n = kf.layer_norm %x normalized_shape [64] eps 1.0e-05 : tensor<29x64xf32>
  %m = kf.mul %n, %w : tensor<29x64xf32>, tensor<64xf32>
  %y = kf.add %m, %b : tensor<29x64xf32>, tensor<64xf32>
  return %y : tensor<29x64xf32>
}
