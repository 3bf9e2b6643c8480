// The sum of three vectors along three axes: a result of d0 * d1 * d2
// elements from inputs of d0, d1 and d2.
func.func @outer(%a: tensor<?x1x1xf32>, %b: tensor<1x?x1xf32>, %c: tensor<1x1x?xf32>) -> tensor<?x?x?xf32> {
  %0 = kf.add %a, %b : tensor<?x1x1xf32>, tensor<1x?x1xf32>
  %1 = kf.add %0, %c : tensor<?x?x1xf32>, tensor<1x1x?xf32>
  return %1 : tensor<?x?x?xf32>
}
