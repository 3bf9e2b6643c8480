// A kernel written by hand (a kf.kernel region), which has no float64
// reference: test/Runtime/check-float64.mlir.
func.func @scale(%x: tensor<64xf32>) -> tensor<64xf32> {
  %0 = kf.kernel "pointwise_mul_0" kind pointwise -> tensor<64xf32> attributes {ops = ["mul"]} {
    %c = arith.constant 2.0 : f32
    %e = tensor.empty() : tensor<64xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %c : f32
      linalg.yield %m : f32
    } -> tensor<64xf32>
    kf.yield %1 : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}
