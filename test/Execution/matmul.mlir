// matmul, 2-D and batched with broadcast batch dims, executed.
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s

// NUMPY: a = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
// NUMPY: b = np.arange(12, dtype=np.float32).reshape(3, 4) / 2
// NUMPY: ba = np.arange(12, dtype=np.float32).reshape(2, 1, 2, 3)
// NUMPY: bb = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 12
// NUMPY: bi = np.array([[1, 2], [3, 4], [5, 6]], np.int32)

func.func private @printMemrefF32(memref<*xf32>)
func.func @show(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %a = kf.constant dense<[[-2.0, -1.0, 0.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %b = kf.constant dense<[[0.0, 0.5, 1.0, 1.5], [2.0, 2.5, 3.0, 3.5], [4.0, 4.5, 5.0, 5.5]]> : tensor<3x4xf32>
  // NUMPY: expect(a @ b)
  %0 = kf.matmul %a, %b : tensor<2x3xf32>, tensor<3x4xf32>
  // The epilogue is computed before %0 is printed: the printer takes an
  // unranked tensor, which bufferization cannot copy if a later op were
  // allowed to overwrite %0 in place.
  %bias = kf.constant dense<[1.0, -20.0, 0.0, -5.0]> : tensor<4xf32>
  %4 = kf.add %0, %bias : tensor<2x4xf32>, tensor<4xf32>
  %5 = kf.relu %4 : tensor<2x4xf32>
  %u0 = tensor.cast %0 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%u0) : (tensor<*xf32>) -> ()

  // [2,1,2,3] x [2,3,4] -> [2,2,2,4]
  // NUMPY: expect(np.matmul(ba, bb))
  %ba = kf.constant dense<[[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]], [[[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]]]> : tensor<2x1x2x3xf32>
  %bb = kf.constant dense<[[[-12.0, -11.0, -10.0, -9.0], [-8.0, -7.0, -6.0, -5.0], [-4.0, -3.0, -2.0, -1.0]], [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]]> : tensor<2x3x4xf32>
  %1 = kf.matmul %ba, %bb : tensor<2x1x2x3xf32>, tensor<2x3x4xf32>
  %u1 = tensor.cast %1 : tensor<2x2x2x4xf32> to tensor<*xf32>
  call @show(%u1) : (tensor<*xf32>) -> ()

  // A 2-D lhs against a batched rhs, and int x float promotion.
  // NUMPY: expect(np.matmul(a, bb)); expect(a @ bi.astype(np.float32))
  %2 = kf.matmul %a, %bb : tensor<2x3xf32>, tensor<2x3x4xf32>
  %u2 = tensor.cast %2 : tensor<2x2x4xf32> to tensor<*xf32>
  call @show(%u2) : (tensor<*xf32>) -> ()
  %bi = kf.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %3 = kf.matmul %a, %bi : tensor<2x3xf32>, tensor<3x2xi32>
  %u3 = tensor.cast %3 : tensor<2x2xf32> to tensor<*xf32>
  call @show(%u3) : (tensor<*xf32>) -> ()

  // matmul + bias + relu, the MLP layer.
  // NUMPY: expect(np.maximum(a @ b + np.array([1.0, -20.0, 0.0, -5.0], np.float32), 0))
  %u5 = tensor.cast %5 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%u5) : (tensor<*xf32>) -> ()
  return
}
