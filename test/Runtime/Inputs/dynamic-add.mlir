// Two dynamic sizes (d0, d1) that must be equal at run time.
func.func @add(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = kf.add %a, %b : tensor<?xf32>, tensor<?xf32>
  return %0 : tensor<?xf32>
}
