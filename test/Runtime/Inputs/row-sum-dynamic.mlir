// Row sums of a matrix of any size.
func.func @row_sum(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %s = kf.sum %x dims [1] : tensor<?x?xf32>
  return %s : tensor<?xf32>
}
