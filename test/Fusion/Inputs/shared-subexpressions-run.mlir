// Programs of shared-subexpressions.mlir run by kfuse-run against numpy.
func.func @outer(%x: tensor<?xf32>) -> tensor<?x?xf32> {
  %y = kf.mul %x, %x : tensor<?xf32>, tensor<?xf32>
  %a = kf.reshape %y [-1, 1] : tensor<?xf32>
  %b = kf.reshape %y [1, -1] : tensor<?xf32>
  %s = kf.mul %a, %b : tensor<?x1xf32>, tensor<1x?xf32>
  %e = kf.tanh %s : tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}
func.func @two_readers(%x: tensor<?xf32>, %z: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %y = kf.mul %x, %x : tensor<?xf32>, tensor<?xf32>
  %a = kf.reshape %y [-1, 1] : tensor<?xf32>
  %p = kf.add %a, %z : tensor<?x1xf32>, tensor<?x?xf32>
  %q = kf.mul %y, %z : tensor<?xf32>, tensor<?x?xf32>
  return %p, %q : tensor<?x?xf32>, tensor<?x?xf32>
}
func.func @transposed_and_broadcast(%x: tensor<301x301xf32>, %v: tensor<301xf32>) -> tensor<301x301xf32> {
  %y = kf.tanh %x : tensor<301x301xf32>
  %t = kf.transpose %y [1, 0] : tensor<301x301xf32>
  %w = kf.neg %v : tensor<301xf32>
  %a = kf.reshape %w [301, 1] : tensor<301xf32>
  %s = kf.mul %t, %a : tensor<301x301xf32>, tensor<301x1xf32>
  %r = kf.add %s, %w : tensor<301x301xf32>, tensor<301xf32>
  %q = kf.add %r, %y : tensor<301x301xf32>, tensor<301x301xf32>
  return %q : tensor<301x301xf32>
}
