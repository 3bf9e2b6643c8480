// Programs on which an elementwise tolerance against the unfused run cried
// wolf (test/Runtime/check-float64.mlir). Each has the places of the
// planted mutations (kf-plant-mutation): an elementwise input read, an
// elementwise add and a float sum.

// Large activations, as a model with random weights has them: attention
// scores of about 1e3 over 512 keys, values of about 100, a projection
// with a bias, layer_norm over its rows and their sums of squares (1e8).
func.func @big(%q: tensor<32x64xf32>, %kt: tensor<64x512xf32>, %v: tensor<512x64xf32>,
               %w: tensor<64x128xf32>, %bias: tensor<128xf32>)
    -> (tensor<32x128xf32>, tensor<32xf32>) {
  %k30 = kf.constant dense<30.0> : tensor<f32>
  %qs = kf.mul %q, %k30 : tensor<32x64xf32>, tensor<f32>
  %s = kf.matmul %qs, %kt : tensor<32x64xf32>, tensor<64x512xf32>
  %p = kf.softmax %s dim 1 : tensor<32x512xf32>
  %k100 = kf.constant dense<100.0> : tensor<f32>
  %vs = kf.mul %v, %k100 : tensor<512x64xf32>, tensor<f32>
  %o = kf.matmul %p, %vs : tensor<32x512xf32>, tensor<512x64xf32>
  %m = kf.matmul %o, %w : tensor<32x64xf32>, tensor<64x128xf32>
  %y = kf.add %m, %bias : tensor<32x128xf32>, tensor<128xf32>
  %ln = kf.layer_norm %y normalized_shape [128] eps 1.0e-05 : tensor<32x128xf32>
  %sq = kf.mul %y, %y : tensor<32x128xf32>, tensor<32x128xf32>
  %r = kf.sum %sq dims [1] : tensor<32x128xf32>
  return %ln, %r : tensor<32x128xf32>, tensor<32xf32>
}

// f32 work returned as f64: a softmax over 512, shifted, cast.
func.func @widen(%x: tensor<16x512xf32>, %c: tensor<16x1xf32>) -> tensor<16x512xf64> {
  %k = kf.constant dense<30.0> : tensor<f32>
  %s = kf.mul %x, %k : tensor<16x512xf32>, tensor<f32>
  %p = kf.softmax %s dim 1 : tensor<16x512xf32>
  %q = kf.add %p, %c : tensor<16x512xf32>, tensor<16x1xf32>
  %d = kf.cast %q : tensor<16x512xf32> to f64
  return %d : tensor<16x512xf64>
}

// 1 / x near a pole: x = a softmax-weighted mean less `t`, which the test's
// inputs make that mean's float64 value rounded to f32: x is a few ulps of
// the mean at most.
func.func @pole(%x: tensor<8x512xf32>, %y: tensor<8x512xf32>, %t: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %k = kf.constant dense<30.0> : tensor<f32>
  %s = kf.mul %x, %k : tensor<8x512xf32>, tensor<f32>
  %p = kf.softmax %s dim 1 : tensor<8x512xf32>
  %py = kf.mul %p, %y : tensor<8x512xf32>, tensor<8x512xf32>
  %m = kf.sum %py dims [1] : tensor<8x512xf32>
  %nt = kf.neg %t : tensor<8xf32>
  %c = kf.add %m, %nt : tensor<8xf32>, tensor<8xf32>
  %r = kf.reciprocal %c : tensor<8xf32>
  return %r, %c, %m : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
