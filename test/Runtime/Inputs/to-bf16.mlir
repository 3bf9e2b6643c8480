// f64 and f32 rounded to bf16 (test/Runtime/bf16.mlir).
func.func @to_bf16(%a: tensor<?xf64>, %b: tensor<?xf32>) -> (tensor<?xbf16>, tensor<?xbf16>) {
  %0 = kf.cast %a : tensor<?xf64> to bf16
  %1 = kf.cast %b : tensor<?xf32> to bf16
  return %0, %1 : tensor<?xbf16>, tensor<?xbf16>
}
