// expand-shape-dynamic-group.mlir's program: exp(x) of a ?x? x, returned
// and flattened.
func.func @exp_and_flat(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %a = kf.exp %x : tensor<?x?xf32>
  %r = kf.reshape %a [-1] : tensor<?x?xf32>
  return %a, %r : tensor<?x?xf32>, tensor<?xf32>
}
