// f16, bf16, f64 and i64 programs: half types compute in f32 and round
// once, as PyTorch's kernels do.
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s

// NUMPY: h = np.array([0.1, 1.5, -2.25, 1000.0], np.float16)
// NUMPY: d = np.array([1e-10, 2.5, -3.0, 1e10], np.float64)
// NUMPY: l = np.array([3000000000, -5, 7, 2**40], np.int64)
// NUMPY: def bf(v):  # round f32 to bf16 (nearest, ties to even), back in f32
// NUMPY:     u = np.asarray(v, np.float32).view(np.uint32).astype(np.uint64)
// NUMPY:     return ((u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000).astype(np.uint32).view(np.float32)

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF64(memref<*xf64>)
func.func private @printMemrefI64(memref<*xi64>)
func.func @show(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}
func.func @show_f64(%t: tensor<*xf64>) {
  %m = bufferization.to_buffer %t : tensor<*xf64> to memref<*xf64>
  call @printMemrefF64(%m) : (memref<*xf64>) -> ()
  return
}
func.func @show_i64(%t: tensor<*xi64>) {
  %m = bufferization.to_buffer %t : tensor<*xi64> to memref<*xi64>
  call @printMemrefI64(%m) : (memref<*xi64>) -> ()
  return
}

func.func @main() {
  %h = kf.constant dense<[0.1, 1.5, -2.25, 1000.0]> : tensor<4xf16>
  %d = kf.constant dense<[1.0e-10, 2.5, -3.0, 1.0e10]> : tensor<4xf64>
  %l = kf.constant dense<[3000000000, -5, 7, 1099511627776]> : tensor<4xi64>

  // f16 * f16 then exp: each op rounds to f16.
  // NUMPY: expect((h * h).astype(np.float32), rtol=1e-3)
  // NUMPY: expect(np.exp(h.astype(np.float32) / 1000).astype(np.float16).astype(np.float32), rtol=1e-3)
  %0 = kf.mul %h, %h : tensor<4xf16>, tensor<4xf16>
  %f0 = kf.cast %0 : tensor<4xf16> to f32
  %u0 = tensor.cast %f0 : tensor<4xf32> to tensor<*xf32>
  call @show(%u0) : (tensor<*xf32>) -> ()
  %k = kf.constant dense<1000.0> : tensor<f16>
  %1 = kf.div %h, %k : tensor<4xf16>, tensor<f16>
  %2 = kf.exp %1 : tensor<4xf16>
  %f2 = kf.cast %2 : tensor<4xf16> to f32
  %u2 = tensor.cast %f2 : tensor<4xf32> to tensor<*xf32>
  call @show(%u2) : (tensor<*xf32>) -> ()

  // f16 + bf16 promotes to f32.
  // NUMPY: expect(h.astype(np.float32) + bf(np.float32([1.0, 0.5, 0.25, 3.0e3])), rtol=1e-3)
  %b = kf.constant dense<[1.0, 0.5, 0.25, 3.0e3]> : tensor<4xbf16>
  %3 = kf.add %h, %b : tensor<4xf16>, tensor<4xbf16>
  %u3 = tensor.cast %3 : tensor<4xf32> to tensor<*xf32>
  call @show(%u3) : (tensor<*xf32>) -> ()

  // f64 keeps its precision across 20 orders of magnitude.
  // NUMPY: expect(d * 2 + np.sqrt(np.abs(d)), rtol=1e-6)
  %two = kf.constant dense<2.0> : tensor<f64>
  %4 = kf.mul %d, %two : tensor<4xf64>, tensor<f64>
  %5 = kf.abs %d : tensor<4xf64>
  %6 = kf.sqrt %5 : tensor<4xf64>
  %7 = kf.add %4, %6 : tensor<4xf64>, tensor<4xf64>
  %u7 = tensor.cast %7 : tensor<4xf64> to tensor<*xf64>
  call @show_f64(%u7) : (tensor<*xf64>) -> ()

  // i64 beyond i32's range, and an i32 scalar that does not narrow it.
  // NUMPY: expect(l * 3 - 1, rtol=0, atol=0)
  %three = kf.constant dense<3> : tensor<i32>
  %one = kf.constant dense<1> : tensor<i32>
  %8 = kf.mul %l, %three : tensor<4xi64>, tensor<i32>
  %9 = kf.sub %8, %one : tensor<4xi64>, tensor<i32>
  %u9 = tensor.cast %9 : tensor<4xi64> to tensor<*xi64>
  call @show_i64(%u9) : (tensor<*xi64>) -> ()
  return
}
