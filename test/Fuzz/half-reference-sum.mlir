// The f32 reference of kf_fuzz.py --half-reference (fusion_diff.py
// --half-reference) accepts kfuse's half sums and refuses f16 accumulation.
// 4096 f16 ones: accumulated in f32 and rounded once, the sum is 4096 and
// the mean 1, both exact; accumulated in f16 (kfuse before issue 13), the
// sum stalls at 2048 (2048 + 1 rounds back to 2048: f16 has 11 bits) and
// the mean is 0.5. The tolerance is one rounding of the result (TOL line:
// atol 0, rtol 2 * 2^-11), so 4096 +- 4 passes and 2048 fails.
// The second run compares the outputs f16 accumulation gives (numpy's
// float16 add.accumulate rounds every partial sum: half-reference-sum.mlir.py)
// in place of kfuse's; it must fail.
// RUN: %fusion-diff --half-reference %s | FileCheck %s --check-prefix=NOW
// NOW: fusion-diff: 1 functions, 3 arrays agree
// RUN: %python %s.py > %t.txt
// RUN: not %fusion-diff --half-reference --candidate-output %t.txt %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=F16ACC
// F16ACC: fusion-diff: array #0 differs; worst at [0]: 2048.0 against 4096.0

// TOL @ones: 0 0.0009765625 0 0.0009765625 0 0.0009765625
func.func @ones(%arg0: tensor<64x64xf16>) -> (tensor<f16>, tensor<f16>, tensor<64x1xf16>) {
  %t = kf.eq %arg0, %arg0 : tensor<64x64xf16>, tensor<64x64xf16>
  %o = kf.cast %t : tensor<64x64xi1> to f16
  %s = kf.sum %o dims [0, 1] : tensor<64x64xf16>
  %m = kf.mean %o dims [0, 1] : tensor<64x64xf16>
  %r = kf.sum %o dims [1] keepdim : tensor<64x64xf16>
  return %s, %m, %r : tensor<f16>, tensor<f16>, tensor<64x1xf16>
}
