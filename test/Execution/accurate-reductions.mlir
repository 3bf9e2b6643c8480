// Sums that a running sum gets wrong, on the CPU pipeline and through the
// GPU mappings (executed on the host by the emulation), against references
// computed here in float64 (issue 13, items 2-5). Each failed before:
// 2^25 ones summed to 2^24, a million 0.1s to 100958, f16 ones stopped at
// 2048, bf16 ones at 256, a layer_norm of a constant row was -3.8e-05 and
// the mean of nothing was 0. printMemref prints 6 significant digits, so
// values are compared to 2e-5 here; test/Runtime/accurate-sums.mlir checks
// 1e-6 on .npy outputs.
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s
// RUN: kfuse-opt %s --kf-cpu-pipeline=fusion=off | %run-cpu | %numpy-check %s
// RUN: kfuse-opt %s --kf-gpu-emulation-pipeline | %run-cpu | %numpy-check %s

func.func private @printMemrefF32(memref<*xf32>)
func.func @show(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %one = kf.constant dense<1.0> : tensor<f32>
  %tenth = kf.constant dense<0.1> : tensor<f32>

  // NUMPY: expect(np.array(2.0 ** 25), rtol=2e-5)
  %ones = kf.broadcast_to %one [33554432] : tensor<f32>
  %0 = kf.sum %ones : tensor<33554432xf32>
  %u0 = tensor.cast %0 : tensor<f32> to tensor<*xf32>
  call @show(%u0) : (tensor<*xf32>) -> ()

  // float32(0.1) is 0.100000001490116; a million of them, and their mean.
  // NUMPY: t = np.float64(np.float32(0.1))
  // NUMPY: expect(np.array(t * 1e6), rtol=2e-5); expect(np.array(t), rtol=2e-5)
  %tenths = kf.broadcast_to %tenth [1000, 1000] : tensor<f32>
  %1 = kf.sum %tenths : tensor<1000x1000xf32>
  %u1 = tensor.cast %1 : tensor<f32> to tensor<*xf32>
  call @show(%u1) : (tensor<*xf32>) -> ()
  %2 = kf.mean %tenths : tensor<1000x1000xf32>
  %u2 = tensor.cast %2 : tensor<f32> to tensor<*xf32>
  call @show(%u2) : (tensor<*xf32>) -> ()

  // 10^8 tenths and their mean within 1e-6 of the f64 values: printed as
  // the relative error times 10^6, which must be at most 1 in magnitude.
  // NUMPY: expect(np.array(0.0), rtol=0, atol=1.0); expect(np.array(0.0), rtol=0, atol=1.0)
  %million = kf.constant dense<1.0e6> : tensor<f32>
  %many = kf.broadcast_to %tenth [100000000] : tensor<f32>
  %s8 = kf.sum %many : tensor<100000000xf32>
  %ref8 = kf.constant dense<1.0000000149011612e7> : tensor<f32>
  %d8 = kf.sub %s8, %ref8 : tensor<f32>, tensor<f32>
  %r8 = kf.div %d8, %ref8 : tensor<f32>, tensor<f32>
  %p8 = kf.mul %r8, %million : tensor<f32>, tensor<f32>
  %u8a = tensor.cast %p8 : tensor<f32> to tensor<*xf32>
  call @show(%u8a) : (tensor<*xf32>) -> ()
  %m8 = kf.mean %many : tensor<100000000xf32>
  %dm8 = kf.sub %m8, %tenth : tensor<f32>, tensor<f32>
  %rm8 = kf.div %dm8, %tenth : tensor<f32>, tensor<f32>
  %pm8 = kf.mul %rm8, %million : tensor<f32>, tensor<f32>
  %u8b = tensor.cast %pm8 : tensor<f32> to tensor<*xf32>
  call @show(%u8b) : (tensor<*xf32>) -> ()

  // Row sums of 1000 rows of 1000 tenths (one block a row on the GPU).
  // NUMPY: expect(np.full(4, t * 1000), rtol=2e-5)
  %rows = kf.broadcast_to %tenth [4, 1000] : tensor<f32>
  %3 = kf.sum %rows dims [1] : tensor<4x1000xf32>
  %u3 = tensor.cast %3 : tensor<4xf32> to tensor<*xf32>
  call @show(%u3) : (tensor<*xf32>) -> ()

  // layer_norm of constant rows is exactly 0 (mean = sum / n, not sum(x/n)).
  // NUMPY: expect(np.zeros((5, 25)), atol=0, rtol=0)
  %block = kf.broadcast_to %one [5, 25] : tensor<f32>
  %4 = kf.layer_norm %block normalized_shape [25] eps 1.0e-05 : tensor<5x25xf32>
  %u4 = tensor.cast %4 : tensor<5x25xf32> to tensor<*xf32>
  call @show(%u4) : (tensor<*xf32>) -> ()

  // The mean over an empty dim is NaN (0 / 0), as torch.mean gives.
  // NUMPY: expect(np.full(3, np.nan))
  %empty = kf.broadcast_to %one [3, 0] : tensor<f32>
  %5 = kf.mean %empty dims [1] : tensor<3x0xf32>
  %u5 = tensor.cast %5 : tensor<3xf32> to tensor<*xf32>
  call @show(%u5) : (tensor<*xf32>) -> ()

  // f16 and bf16 accumulate in f32 and round once.
  // NUMPY: expect(np.array(4096.0), rtol=0); expect(np.array(1000.0), rtol=0)
  %h1 = kf.constant dense<1.0> : tensor<f16>
  %hones = kf.broadcast_to %h1 [4096] : tensor<f16>
  %6 = kf.sum %hones : tensor<4096xf16>
  %f6 = kf.cast %6 : tensor<f16> to f32
  %u6 = tensor.cast %f6 : tensor<f32> to tensor<*xf32>
  call @show(%u6) : (tensor<*xf32>) -> ()
  %b1 = kf.constant dense<1.0> : tensor<bf16>
  %bones = kf.broadcast_to %b1 [1000] : tensor<bf16>
  %7 = kf.sum %bones : tensor<1000xbf16>
  %f7 = kf.cast %7 : tensor<bf16> to f32
  %u7 = tensor.cast %f7 : tensor<f32> to tensor<*xf32>
  call @show(%u7) : (tensor<*xf32>) -> ()

  // softmax of a 4096-wide f16 row of zeros: 1/4096 each.
  // NUMPY: expect(np.full((2, 4096), 2.0 ** -12), rtol=0)
  %h0 = kf.constant dense<0.0> : tensor<f16>
  %hzeros = kf.broadcast_to %h0 [2, 4096] : tensor<f16>
  %8 = kf.softmax %hzeros dim 1 : tensor<2x4096xf16>
  %f8 = kf.cast %8 : tensor<2x4096xf16> to f32
  %u8 = tensor.cast %f8 : tensor<2x4096xf32> to tensor<*xf32>
  call @show(%u8) : (tensor<*xf32>) -> ()

  // ones[2, 4096] @ ones[4096, 2] in f16 is 4096 everywhere.
  // NUMPY: expect(np.full((2, 2), 4096.0), rtol=0)
  %ha = kf.broadcast_to %h1 [2, 4096] : tensor<f16>
  %hb = kf.broadcast_to %h1 [4096, 2] : tensor<f16>
  %9 = kf.matmul %ha, %hb : tensor<2x4096xf16>, tensor<4096x2xf16>
  %f9 = kf.cast %9 : tensor<2x2xf16> to f32
  %u9 = tensor.cast %f9 : tensor<2x2xf32> to tensor<*xf32>
  call @show(%u9) : (tensor<*xf32>) -> ()
  return
}
