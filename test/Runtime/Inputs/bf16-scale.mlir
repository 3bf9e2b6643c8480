// A bf16 argument times an f32 one (test/Runtime/bf16.mlir).
func.func @scale(%a: tensor<?xbf16>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = kf.mul %a, %b : tensor<?xbf16>, tensor<?xf32>
  return %0 : tensor<?xf32>
}
