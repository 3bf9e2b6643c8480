// The article's add+relu over a length given at run time: one library (one
// PTX) serves 1e6, 1e7 and 1e8 elements in bench/gpu-check.sh.
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = kf.add %a, %b : tensor<?xf32>, tensor<?xf32>
  %1 = kf.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}
