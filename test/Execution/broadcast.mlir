// Broadcasting and dtype promotion, executed and compared with numpy.
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s

// NUMPY: x = np.arange(12, dtype=np.float32).reshape(3, 4) - 5
// NUMPY: bias = np.array([0.5, -1.0, 2.0, 10.0], np.float32)
// NUMPY: col = np.array([[1.0], [2.0], [3.0]], np.float32)
// NUMPY: n = np.array([1, 2, 3, 4], np.int32)

func.func private @printMemrefF32(memref<*xf32>)
func.func @show(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %x = kf.constant dense<[[-5.0, -4.0, -3.0, -2.0], [-1.0, 0.0, 1.0, 2.0], [3.0, 4.0, 5.0, 6.0]]> : tensor<3x4xf32>
  %bias = kf.constant dense<[0.5, -1.0, 2.0, 10.0]> : tensor<4xf32>
  %col = kf.constant dense<[[1.0], [2.0], [3.0]]> : tensor<3x1xf32>
  %n = kf.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %half = kf.constant dense<0.5> : tensor<f64>

  // A bias row over every row.
  // NUMPY: expect(x + bias)
  %0 = kf.add %x, %bias : tensor<3x4xf32>, tensor<4xf32>
  %u0 = tensor.cast %0 : tensor<3x4xf32> to tensor<*xf32>
  call @show(%u0) : (tensor<*xf32>) -> ()

  // A column against a row: an outer product.
  // NUMPY: expect(col * bias)
  %1 = kf.mul %col, %bias : tensor<3x1xf32>, tensor<4xf32>
  %u1 = tensor.cast %1 : tensor<3x4xf32> to tensor<*xf32>
  call @show(%u1) : (tensor<*xf32>) -> ()

  // An int row promotes to f32 against the f32 matrix.
  // NUMPY: expect(x - n)
  %2 = kf.sub %x, %n : tensor<3x4xf32>, tensor<4xi32>
  %u2 = tensor.cast %2 : tensor<3x4xf32> to tensor<*xf32>
  call @show(%u2) : (tensor<*xf32>) -> ()

  // A 0-d f64 scalar does not promote the f32 tensor (PyTorch's rule);
  // the result is f32.
  // NUMPY: expect(x * np.float32(0.5))
  %3 = kf.mul %x, %half : tensor<3x4xf32>, tensor<f64>
  %u3 = tensor.cast %3 : tensor<3x4xf32> to tensor<*xf32>
  call @show(%u3) : (tensor<*xf32>) -> ()

  // broadcast_to read by an elementwise op, and materialised on its own.
  // NUMPY: expect(np.broadcast_to(col, (3, 4)) + x); expect(np.broadcast_to(bias, (2, 3, 4)))
  %b = kf.broadcast_to %col [3, 4] : tensor<3x1xf32>
  %4 = kf.add %b, %x : tensor<3x4xf32>, tensor<3x4xf32>
  %u4 = tensor.cast %4 : tensor<3x4xf32> to tensor<*xf32>
  call @show(%u4) : (tensor<*xf32>) -> ()
  %5 = kf.broadcast_to %bias [2, 3, 4] : tensor<4xf32>
  %u5 = tensor.cast %5 : tensor<2x3x4xf32> to tensor<*xf32>
  call @show(%u5) : (tensor<*xf32>) -> ()

  // where with a broadcast condition and a scalar branch.
  // NUMPY: expect(np.where(col > 1.5, x, np.float32(-1)))
  %th = kf.constant dense<1.5> : tensor<f32>
  %m1 = kf.constant dense<-1.0> : tensor<f32>
  %c = kf.gt %col, %th : tensor<3x1xf32>, tensor<f32>
  %6 = kf.where %c, %x, %m1 : tensor<3x1xi1>, tensor<3x4xf32>, tensor<f32>
  %u6 = tensor.cast %6 : tensor<3x4xf32> to tensor<*xf32>
  call @show(%u6) : (tensor<*xf32>) -> ()
  return
}
