// kf.cumsum runs on the CPU, fused and unfused, and through the GPU
// mappings (executed on the host by the emulation; blocks of 32 threads
// for fewer lines than threads and several blocks), against numpy's
// cumsum in float64: floats along the last dim and along an inner one,
// with ops before and after it (formed into kernels of their own: the
// scan runs alone), ints and bools (i64 sums), f16 (accumulated in f32,
// each element rounded once), and terms of mixed sizes where a plain f32
// running sum loses the small ones (the sums are compensated).
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s
// RUN: kfuse-opt %s --kf-cpu-pipeline=fusion=off | %run-cpu | %numpy-check %s
// RUN: kfuse-opt %s --kf-gpu-emulation-pipeline | %run-cpu | %numpy-check %s
// RUN: kfuse-opt %s --kf-gpu-emulation-pipeline=block-size=32 | %run-cpu | %numpy-check %s

// NUMPY: x = np.arange(24, dtype=np.float64).reshape(2, 3, 4) / 4 - 2.5
// NUMPY: m = np.array([[1, 1, 1, 0, 0], [1, 0, 1, 1, 0]], dtype=bool)

func.func private @printMemrefF32(memref<*xf32>)
func.func @show(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %x = kf.constant dense<[[[-2.5, -2.25, -2.0, -1.75], [-1.5, -1.25, -1.0, -0.75], [-0.5, -0.25, 0.0, 0.25]], [[0.5, 0.75, 1.0, 1.25], [1.5, 1.75, 2.0, 2.25], [2.5, 2.75, 3.0, 3.25]]]> : tensor<2x3x4xf32>
  %m = kf.constant dense<[[true, true, true, false, false], [true, false, true, true, false]]> : tensor<2x5xi1>
  %two = kf.constant dense<2.0> : tensor<f32>
  %one = kf.constant dense<1.0> : tensor<f32>

  // Along the last dim.
  // NUMPY: expect(np.cumsum(x, axis=-1))
  %0 = kf.cumsum %x dim -1 : tensor<2x3x4xf32>
  %u0 = tensor.cast %0 : tensor<2x3x4xf32> to tensor<*xf32>
  call @show(%u0) : (tensor<*xf32>) -> ()

  // Along an inner dim, an op before it and one after it.
  // NUMPY: expect(np.cumsum(x * 2, axis=1) + 1)
  %x2 = kf.mul %x, %two : tensor<2x3x4xf32>, tensor<f32>
  %1 = kf.cumsum %x2 dim 1 : tensor<2x3x4xf32>
  %2 = kf.add %1, %one : tensor<2x3x4xf32>, tensor<f32>
  %u2 = tensor.cast %2 : tensor<2x3x4xf32> to tensor<*xf32>
  call @show(%u2) : (tensor<*xf32>) -> ()

  // Along the first dim.
  // NUMPY: expect(np.cumsum(x, axis=0))
  %3 = kf.cumsum %x dim 0 : tensor<2x3x4xf32>
  %u3 = tensor.cast %3 : tensor<2x3x4xf32> to tensor<*xf32>
  call @show(%u3) : (tensor<*xf32>) -> ()

  // A mask builder's positions: cumsum of a bool mask (i64), less one,
  // where the mask is set (transformers' position ids from an attention
  // mask), shown as f32.
  // NUMPY: expect(np.where(m, np.cumsum(m, axis=1) - 1, 1))
  %c = kf.cumsum %m dim 1 : tensor<2x5xi1>
  %ione = kf.constant dense<1> : tensor<i64>
  %p = kf.sub %c, %ione : tensor<2x5xi64>, tensor<i64>
  %pos = kf.where %m, %p, %ione : tensor<2x5xi1>, tensor<2x5xi64>, tensor<i64>
  %pf = kf.cast %pos : tensor<2x5xi64> to f32
  %u4 = tensor.cast %pf : tensor<2x5xf32> to tensor<*xf32>
  call @show(%u4) : (tensor<*xf32>) -> ()

  // i32 in, i64 out (torch.cumsum's dtype), along dim 0.
  // NUMPY: expect(np.cumsum(np.array([[3, -7], [2147483647, 1], [1, 1]], dtype=np.int64), axis=0))
  %i = kf.constant dense<[[3, -7], [2147483647, 1], [1, 1]]> : tensor<3x2xi32>
  %ci = kf.cumsum %i dim 0 : tensor<3x2xi32>
  %cf = kf.cast %ci : tensor<3x2xi64> to f32
  %u5 = tensor.cast %cf : tensor<3x2xf32> to tensor<*xf32>
  call @show(%u5) : (tensor<*xf32>) -> ()

  // f16: each running sum rounded once to f16 (2049 is not an f16: 2048).
  // NUMPY: h = np.array([2048.0, 0.5, 0.5, 0.25])
  // NUMPY: expect(np.cumsum(h).astype(np.float16))
  %h = kf.constant dense<[2048.0, 0.5, 0.5, 0.25]> : tensor<4xf16>
  %ch = kf.cumsum %h dim 0 : tensor<4xf16>
  %chf = kf.cast %ch : tensor<4xf16> to f32
  %u6 = tensor.cast %chf : tensor<4xf32> to tensor<*xf32>
  call @show(%u6) : (tensor<*xf32>) -> ()

  // 1, a thousand 1e-8, then -1: a plain f32 running sum stays at 1 and
  // ends at 0, where the sum is 1e-5; the compensated one's error is
  // within 2 u sum|x| = 2 * 2^-24 * 2.00001 = 2.4e-7 (rtol: the 6 digits
  // printed). 40 lines: several blocks of 32 threads.
  // NUMPY: big = np.concatenate([np.ones((40, 1)), np.full((40, 1000), 1e-8), -np.ones((40, 1))], axis=1)
  // NUMPY: expect(np.cumsum(big, axis=1), rtol=5e-6, atol=2.4e-7)
  %ones = kf.constant dense<1.0> : tensor<40x1xf32>
  %small = kf.constant dense<1.0e-8> : tensor<40x1000xf32>
  %minus = kf.constant dense<-1.0> : tensor<40x1xf32>
  %b = kf.cat %ones, %small, %minus dim 1 : tensor<40x1xf32>, tensor<40x1000xf32>, tensor<40x1xf32>
  %cb = kf.cumsum %b dim 1 : tensor<40x1002xf32>
  %u7 = tensor.cast %cb : tensor<40x1002xf32> to tensor<*xf32>
  call @show(%u7) : (tensor<*xf32>) -> ()
  return
}
