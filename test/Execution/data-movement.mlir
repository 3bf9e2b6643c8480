// reshape, transpose and broadcast_to, executed.
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s

// NUMPY: x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)

func.func private @printMemrefF32(memref<*xf32>)
func.func @show(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %x = kf.constant dense<[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]]> : tensor<2x3x4xf32>

  // NUMPY: expect(x.reshape(4, -1)); expect(x.reshape(-1))
  %0 = kf.reshape %x [4, -1] : tensor<2x3x4xf32>
  %u0 = tensor.cast %0 : tensor<4x6xf32> to tensor<*xf32>
  call @show(%u0) : (tensor<*xf32>) -> ()
  %1 = kf.reshape %x [-1] : tensor<2x3x4xf32>
  %u1 = tensor.cast %1 : tensor<24xf32> to tensor<*xf32>
  call @show(%u1) : (tensor<*xf32>) -> ()

  // NUMPY: expect(x.transpose(2, 0, 1)); expect(x.transpose(1, 0, 2).reshape(6, 4))
  %2 = kf.transpose %x [2, 0, 1] : tensor<2x3x4xf32>
  %u2 = tensor.cast %2 : tensor<4x2x3xf32> to tensor<*xf32>
  call @show(%u2) : (tensor<*xf32>) -> ()
  %3 = kf.transpose %x [1, 0, 2] : tensor<2x3x4xf32>
  %4 = kf.reshape %3 [6, 4] : tensor<3x2x4xf32>
  %u4 = tensor.cast %4 : tensor<6x4xf32> to tensor<*xf32>
  call @show(%u4) : (tensor<*xf32>) -> ()

  // expand a size-1 middle dim and add a leading dim.
  // NUMPY: s = x[:, 1:2, :]; expect(np.broadcast_to(s, (2, 2, 5, 4)))
  %s = kf.constant dense<[[[4.0, 5.0, 6.0, 7.0]], [[16.0, 17.0, 18.0, 19.0]]]> : tensor<2x1x4xf32>
  %5 = kf.broadcast_to %s [2, -1, 5, -1] : tensor<2x1x4xf32>
  %u5 = tensor.cast %5 : tensor<2x2x5x4xf32> to tensor<*xf32>
  call @show(%u5) : (tensor<*xf32>) -> ()
  return
}
