// add then relu over a length given at run time.
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = kf.add %a, %b : tensor<?xf32>, tensor<?xf32>
  %1 = kf.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}
