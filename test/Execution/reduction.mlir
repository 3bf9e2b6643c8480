// Reductions over dims, with keepdim, and over everything.
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s

// NUMPY: x = (np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 10) / 4
// NUMPY: i = np.array([[0, 142857142, 285714285, 428571428], [571428571, 714285714, 857142857, 1000000000], [1142857142, 1285714285, 1428571428, 1571428571]], np.int32)

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func @show(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}
func.func @show_i64(%t: tensor<*xi64>) {
  %m = bufferization.to_buffer %t : tensor<*xi64> to memref<*xi64>
  call @printMemrefI64(%m) : (memref<*xi64>) -> ()
  return
}

func.func @main() {
  %r = kf.constant dense<[[[-2.5, -2.25, -2.0, -1.75], [-1.5, -1.25, -1.0, -0.75], [-0.5, -0.25, 0.0, 0.25]], [[0.5, 0.75, 1.0, 1.25], [1.5, 1.75, 2.0, 2.25], [2.5, 2.75, 3.0, 3.25]]]> : tensor<2x3x4xf32>

  // NUMPY: expect(x.sum(axis=2)); expect(x.sum(axis=(0, 2), keepdims=True))
  %0 = kf.sum %r dims [2] : tensor<2x3x4xf32>
  %u0 = tensor.cast %0 : tensor<2x3xf32> to tensor<*xf32>
  call @show(%u0) : (tensor<*xf32>) -> ()
  %1 = kf.sum %r dims [0, -1] keepdim : tensor<2x3x4xf32>
  %u1 = tensor.cast %1 : tensor<1x3x1xf32> to tensor<*xf32>
  call @show(%u1) : (tensor<*xf32>) -> ()

  // NUMPY: expect(x.mean(axis=1)); expect(x.mean().reshape(1))
  %2 = kf.mean %r dims [1] : tensor<2x3x4xf32>
  %u2 = tensor.cast %2 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%u2) : (tensor<*xf32>) -> ()
  %3 = kf.mean %r : tensor<2x3x4xf32>
  %s3 = kf.reshape %3 [1] : tensor<f32>
  %u3 = tensor.cast %s3 : tensor<1xf32> to tensor<*xf32>
  call @show(%u3) : (tensor<*xf32>) -> ()

  // NUMPY: expect(x.max(axis=0)); expect(x.min(axis=(1, 2), keepdims=True))
  %4 = kf.max %r dims [0] : tensor<2x3x4xf32>
  %u4 = tensor.cast %4 : tensor<3x4xf32> to tensor<*xf32>
  call @show(%u4) : (tensor<*xf32>) -> ()
  %5 = kf.min %r dims [1, 2] keepdim : tensor<2x3x4xf32>
  %u5 = tensor.cast %5 : tensor<2x1x1xf32> to tensor<*xf32>
  call @show(%u5) : (tensor<*xf32>) -> ()

  // torch.sum of int32 is int64: these row sums overflow int32.
  // NUMPY: expect(i.astype(np.int64).sum(axis=1), rtol=0, atol=0)
  %i = kf.constant dense<[[0, 142857142, 285714285, 428571428], [571428571, 714285714, 857142857, 1000000000], [1142857142, 1285714285, 1428571428, 1571428571]]> : tensor<3x4xi32>
  %6 = kf.sum %i dims [1] : tensor<3x4xi32>
  %u6 = tensor.cast %6 : tensor<3xi64> to tensor<*xi64>
  call @show_i64(%u6) : (tensor<*xi64>) -> ()
  return
}
