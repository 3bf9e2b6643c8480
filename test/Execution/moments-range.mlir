// Moments on the CPU (issue 27, items 4 and 5): layer_norm, rms_norm, var
// and std of f32 take their moments in f64 (kf-to-linalg's f64-moments,
// as PyTorch's CPU var accumulates in double), so that a constant row that
// f32 cannot sum exactly still normalizes to 0, and squares past f32's
// range neither overflow nor underflow. Expected values are computed here
// in float64. Before: the +-3e38 rows gave 0, [3.4e38, 3.4e38] NaN, the
// 1e30 std inf, the 1e-30 std 0, the 1.5e19 var inf and the 1e20 rms_norm
// rows 0 (the 0.7 rows were already 0 on this pipeline, whose sums are one
// compensated loop; the host runtime's rows were not: Runtime/
// moments-range.mlir). Also
// clamp(-0.0, 0, 6) is -0.0 (it was +0.0; printed as 1 / clamp = -inf)
// and expm1 of the smallest denormal is itself (it was 0; printed as
// expm1(x) / x). The GPU keeps f32 moments, as PyTorch's CUDA kernels: the
// emulation pipeline is not run here.
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s
// RUN: kfuse-opt %s --kf-cpu-pipeline=fusion=off | %run-cpu | %numpy-check %s

func.func private @printMemrefF32(memref<*xf32>)
func.func @show(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %c07 = kf.constant dense<0.7> : tensor<f32>

  // Rows of 0.7 of three lengths normalize to exactly 0.
  // NUMPY: expect(np.zeros((3, 1000)), rtol=0, atol=0)
  // NUMPY: expect(np.zeros((2, 1023)), rtol=0, atol=0)
  // NUMPY: expect(np.zeros((4, 37)), rtol=0, atol=0)
  %r0 = kf.broadcast_to %c07 [3, 1000] : tensor<f32>
  %l0 = kf.layer_norm %r0 normalized_shape [1000] eps 1.0e-05 : tensor<3x1000xf32>
  %u0 = tensor.cast %l0 : tensor<3x1000xf32> to tensor<*xf32>
  call @show(%u0) : (tensor<*xf32>) -> ()
  %r1 = kf.broadcast_to %c07 [2, 1023] : tensor<f32>
  %l1 = kf.layer_norm %r1 normalized_shape [1023] eps 1.0e-05 : tensor<2x1023xf32>
  %u1 = tensor.cast %l1 : tensor<2x1023xf32> to tensor<*xf32>
  call @show(%u1) : (tensor<*xf32>) -> ()
  %r2 = kf.broadcast_to %c07 [4, 37] : tensor<f32>
  %l2 = kf.layer_norm %r2 normalized_shape [37] eps 1.0e-05 : tensor<4x37xf32>
  %u2 = tensor.cast %l2 : tensor<4x37xf32> to tensor<*xf32>
  call @show(%u2) : (tensor<*xf32>) -> ()

  // Rows whose variance is past f32's range: +-3e38 alternating (mean 0,
  // variance 9e76) normalize to +-1; a constant row of 3.4e38 (whose f32
  // sum overflows) to 0; [3e38, 3e38, -3e38, -1e38] to its float64 value.
  // NUMPY: big = np.array([[3e38, -3e38] * 4, [3.4e38] * 8,
  // NUMPY:                 [3e38, 3e38, -3e38, -1e38] * 2])
  // NUMPY: c = big - big.mean(-1, keepdims=True)
  // NUMPY: expect(c / np.sqrt((c * c).mean(-1, keepdims=True) + 1e-5), rtol=2e-5, atol=0)
  %big = kf.constant dense<[[3.0e38, -3.0e38, 3.0e38, -3.0e38, 3.0e38, -3.0e38, 3.0e38, -3.0e38],
                            [3.4e38, 3.4e38, 3.4e38, 3.4e38, 3.4e38, 3.4e38, 3.4e38, 3.4e38],
                            [3.0e38, 3.0e38, -3.0e38, -1.0e38, 3.0e38, 3.0e38, -3.0e38, -1.0e38]]> : tensor<3x8xf32>
  %l3 = kf.layer_norm %big normalized_shape [8] eps 1.0e-05 : tensor<3x8xf32>
  %u3 = tensor.cast %l3 : tensor<3x8xf32> to tensor<*xf32>
  call @show(%u3) : (tensor<*xf32>) -> ()

  // std([1e30, 0, 0], correction=0) = 4.714e29 (PyTorch's CPU), and the
  // same of 1e-30 (its f32 squares underflow to 0); var([1.5e19, -1.5e19,
  // 0]) = 2.25e38, whose squares' f32 sum overflows.
  // NUMPY: expect(np.std([1e30, 0, 0]), rtol=2e-5); expect(np.std([1e-30, 0, 0]), rtol=2e-5)
  // NUMPY: expect(np.var([1.5e19, -1.5e19, 0], ddof=1), rtol=2e-5)
  %s0 = kf.constant dense<[1.0e30, 0.0, 0.0]> : tensor<3xf32>
  %std0 = kf.std %s0 correction 0 : tensor<3xf32>
  %u4 = tensor.cast %std0 : tensor<f32> to tensor<*xf32>
  call @show(%u4) : (tensor<*xf32>) -> ()
  %s1 = kf.constant dense<[1.0e-30, 0.0, 0.0]> : tensor<3xf32>
  %std1 = kf.std %s1 correction 0 : tensor<3xf32>
  %u5 = tensor.cast %std1 : tensor<f32> to tensor<*xf32>
  call @show(%u5) : (tensor<*xf32>) -> ()
  %s2 = kf.constant dense<[1.5e19, -1.5e19, 0.0]> : tensor<3xf32>
  %var2 = kf.var %s2 : tensor<3xf32>
  %u6 = tensor.cast %var2 : tensor<f32> to tensor<*xf32>
  call @show(%u6) : (tensor<*xf32>) -> ()

  // rms_norm of rows of 1e20 (mean square 1e40, past f32) is 1.
  // NUMPY: expect(np.ones((2, 16)), rtol=2e-5)
  %e20 = kf.constant dense<1.0e20> : tensor<f32>
  %r3 = kf.broadcast_to %e20 [2, 16] : tensor<f32>
  %rms = kf.rms_norm %r3 normalized_shape [16] : tensor<2x16xf32>
  %u7 = tensor.cast %rms : tensor<2x16xf32> to tensor<*xf32>
  call @show(%u7) : (tensor<*xf32>) -> ()

  // clamp keeps x on a tie with a bound: -0.0 stays -0.0 (1 / it is -inf);
  // +0.0 against a -0.0 bound stays +0.0.
  // NUMPY: expect(np.array([-np.inf, np.inf, 1 / 6.0, 1.0]))
  %z = kf.constant dense<[-0.0, 0.0, 7.0, 1.0]> : tensor<4xf32>
  %cl = kf.clamp %z min(0.0) max(6.0) : tensor<4xf32>
  %cl2 = kf.clamp %cl min(-0.0) : tensor<4xf32>
  %one = kf.constant dense<1.0> : tensor<f32>
  %inv = kf.div %one, %cl2 : tensor<f32>, tensor<4xf32>
  %u8 = tensor.cast %inv : tensor<4xf32> to tensor<*xf32>
  call @show(%u8) : (tensor<*xf32>) -> ()

  // expm1 of the smallest denormal (2^-149) and of 1e-30 is the input.
  // NUMPY: expect(np.array([1.0, 1.0, 1.0]), rtol=0, atol=0)
  %d = kf.constant dense<[1.40129846e-45, -1.40129846e-45, 1.0e-30]> : tensor<3xf32>
  %em = kf.expm1 %d : tensor<3xf32>
  %q = kf.div %em, %d : tensor<3xf32>, tensor<3xf32>
  %u9 = tensor.cast %q : tensor<3xf32> to tensor<*xf32>
  call @show(%u9) : (tensor<*xf32>) -> ()
  return
}
