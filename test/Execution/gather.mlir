// kf.index_select (F.embedding, torch.index_select) and kf.gather run on
// the CPU, fused and unfused, and through the GPU mappings (executed on the
// host by the emulation), against numpy's fancy indexing. An index outside
// [0, n) (PyTorch raises there) gives NaN: -1 and 5 below.
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s
// RUN: kfuse-opt %s --kf-cpu-pipeline=fusion=off | %run-cpu | %numpy-check %s
// RUN: kfuse-opt %s --kf-gpu-emulation-pipeline | %run-cpu | %numpy-check %s
// RUN: kfuse-opt %s --kf-gpu-emulation-pipeline=block-size=32 | %run-cpu | %numpy-check %s

// NUMPY: x = np.arange(15, dtype=np.float64).reshape(5, 3) / 4 - 1
// NUMPY: tok = np.array([[0, 4, 2, 4], [3, 1, 1, 0]])
// NUMPY: bad = np.array([[0, -1, 2], [5, 1, 4]])
// NUMPY: pos = np.array([[0.5, -0.5, 2.0]] * 4)
// NUMPY: def take(t, i, axis=0):
// NUMPY:     ok = (i >= 0) & (i < t.shape[axis])
// NUMPY:     v = np.take(t, np.where(ok, i, 0), axis=axis)
// NUMPY:     shape = [1] * v.ndim
// NUMPY:     shape[axis:axis + i.ndim] = i.shape
// NUMPY:     return np.where(ok.reshape(shape), v, np.nan)

func.func private @printMemrefF32(memref<*xf32>)
func.func @show(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %x = kf.constant dense<[[-1.0, -0.75, -0.5], [-0.25, 0.0, 0.25], [0.5, 0.75, 1.0], [1.25, 1.5, 1.75], [2.0, 2.25, 2.5]]> : tensor<5x3xf32>
  %tok = kf.constant dense<[[0, 4, 2, 4], [3, 1, 1, 0]]> : tensor<2x4xi64>
  %bad = kf.constant dense<[[0, -1, 2], [5, 1, 4]]> : tensor<2x3xi64>
  %pos = kf.constant dense<[[0.5, -0.5, 2.0], [0.5, -0.5, 2.0], [0.5, -0.5, 2.0], [0.5, -0.5, 2.0]]> : tensor<4x3xf32>

  // Token and position embeddings added (one kernel when fused).
  // NUMPY: expect(x[tok] + pos)
  %e = kf.index_select %x, %tok dim 0 : tensor<5x3xf32>, tensor<2x4xi64>
  %0 = kf.add %e, %pos : tensor<2x4x3xf32>, tensor<4x3xf32>
  %u0 = tensor.cast %0 : tensor<2x4x3xf32> to tensor<*xf32>
  call @show(%u0) : (tensor<*xf32>) -> ()

  // Out-of-range tokens: NaN rows, also through a row sum. (The sum is
  // computed before @show is called: a call may write its argument.)
  // NUMPY: expect(take(x, bad))
  %1 = kf.index_select %x, %bad dim 0 : tensor<5x3xf32>, tensor<2x3xi64>
  %2 = kf.sum %1 dims [2] : tensor<2x3x3xf32>
  %u1 = tensor.cast %1 : tensor<2x3x3xf32> to tensor<*xf32>
  call @show(%u1) : (tensor<*xf32>) -> ()
  // NUMPY: expect(take(x, bad).sum(axis=-1))
  %u2 = tensor.cast %2 : tensor<2x3xf32> to tensor<*xf32>
  call @show(%u2) : (tensor<*xf32>) -> ()

  // A softmax over gathered rows (the gather in a row kernel).
  // NUMPY: r = x[tok]; e = np.exp(r - r.max(axis=-1, keepdims=True))
  // NUMPY: expect(e / e.sum(axis=-1, keepdims=True))
  %3 = kf.softmax %e dim -1 : tensor<2x4x3xf32>
  %u3 = tensor.cast %3 : tensor<2x4x3xf32> to tensor<*xf32>
  call @show(%u3) : (tensor<*xf32>) -> ()

  // A computed table: its kernel writes it before the gather reads it.
  // NUMPY: expect(np.exp(x * 2)[tok] * 3)
  %two = kf.constant dense<2.0> : tensor<f32>
  %three = kf.constant dense<3.0> : tensor<f32>
  %x2 = kf.mul %x, %two : tensor<5x3xf32>, tensor<f32>
  %t = kf.exp %x2 : tensor<5x3xf32>
  %g = kf.index_select %t, %tok dim 0 : tensor<5x3xf32>, tensor<2x4xi64>
  %4 = kf.mul %g, %three : tensor<2x4x3xf32>, tensor<f32>
  %u4 = tensor.cast %4 : tensor<2x4x3xf32> to tensor<*xf32>
  call @show(%u4) : (tensor<*xf32>) -> ()

  // torch.index_select along dim 1 (spelled -1) with an int32 index (3 is
  // out of range).
  // NUMPY: expect(take(x, np.array([2, 0, 3, 2, 1]), axis=1))
  %cols = kf.constant dense<[2, 0, 3, 2, 1]> : tensor<5xi32>
  %5 = kf.index_select %x, %cols dim -1 : tensor<5x3xf32>, tensor<5xi32>
  %u5 = tensor.cast %5 : tensor<5x5xf32> to tensor<*xf32>
  call @show(%u5) : (tensor<*xf32>) -> ()

  // torch.gather along dim 1 (spelled -1), then along dim 0 (an index of
  // -1 is NaN).
  // NUMPY: gi = np.array([[2, 2], [0, 1], [1, 0], [2, 0]])
  // NUMPY: expect(np.take_along_axis(x[:4, :], gi, axis=1))
  %gi = kf.constant dense<[[2, 2], [0, 1], [1, 0], [2, 0]]> : tensor<4x2xi64>
  %6 = kf.gather %x, %gi dim -1 : tensor<5x3xf32>, tensor<4x2xi64>
  %u6 = tensor.cast %6 : tensor<4x2xf32> to tensor<*xf32>
  call @show(%u6) : (tensor<*xf32>) -> ()
  // NUMPY: gj = np.array([[4, 0, -1], [1, 3, 2]])
  // NUMPY: ok = gj >= 0
  // NUMPY: expect(np.where(ok, np.take_along_axis(x, np.where(ok, gj, 0), axis=0), np.nan))
  %gj = kf.constant dense<[[4, 0, -1], [1, 3, 2]]> : tensor<2x3xi64>
  %7 = kf.gather %x, %gj dim 0 : tensor<5x3xf32>, tensor<2x3xi64>
  %u7 = tensor.cast %7 : tensor<2x3xf32> to tensor<*xf32>
  call @show(%u7) : (tensor<*xf32>) -> ()
  return
}
