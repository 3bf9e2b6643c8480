// Programs of neighbour-distance.mlir run by kfuse-run against numpy.
func.func @farthest(%x: tensor<?x3xf32>) -> tensor<?xf32> {
  %a = kf.reshape %x [-1, 1, 3] : tensor<?x3xf32>
  %b = kf.reshape %x [1, -1, 3] : tensor<?x3xf32>
  %d = kf.sub %a, %b : tensor<?x1x3xf32>, tensor<1x?x3xf32>
  %q = kf.mul %d, %d : tensor<?x?x3xf32>, tensor<?x?x3xf32>
  %s = kf.sum %q dims [2] : tensor<?x?x3xf32>
  %m = kf.max %s dims [1] : tensor<?x?xf32>
  return %m : tensor<?xf32>
}
func.func @nearest(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> tensor<?xf32> {
  %a = kf.reshape %x [-1, 1, 4] : tensor<?x4xf32>
  %b = kf.reshape %y [1, -1, 4] : tensor<?x4xf32>
  %d = kf.sub %a, %b : tensor<?x1x4xf32>, tensor<1x?x4xf32>
  %q = kf.abs %d : tensor<?x?x4xf32>
  %s = kf.sum %q dims [2] : tensor<?x?x4xf32>
  %m = kf.min %s dims [0] : tensor<?x?xf32>
  return %m : tensor<?xf32>
}
func.func @soft_neighbours(%x: tensor<?x2xf32>) -> tensor<?x?xf32> {
  %a = kf.reshape %x [-1, 1, 2] : tensor<?x2xf32>
  %b = kf.reshape %x [1, -1, 2] : tensor<?x2xf32>
  %d = kf.sub %a, %b : tensor<?x1x2xf32>, tensor<1x?x2xf32>
  %q = kf.mul %d, %d : tensor<?x?x2xf32>, tensor<?x?x2xf32>
  %s = kf.sum %q dims [2] : tensor<?x?x2xf32>
  %n = kf.neg %s : tensor<?x?xf32>
  %p = kf.softmax %n dim 1 : tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}
func.func @pair_products(%x: tensor<?x2x2xf32>, %y: tensor<?x2x2xf32>) -> tensor<?xf32> {
  %a = kf.reshape %x [-1, 1, 2, 2] : tensor<?x2x2xf32>
  %b = kf.reshape %y [1, -1, 2, 2] : tensor<?x2x2xf32>
  %d = kf.mul %a, %b : tensor<?x1x2x2xf32>, tensor<1x?x2x2xf32>
  %s = kf.sum %d dims [2, 3] : tensor<?x?x2x2xf32>
  %e = kf.exp %s : tensor<?x?xf32>
  %m = kf.sum %e dims [1] : tensor<?x?xf32>
  return %m : tensor<?xf32>
}
