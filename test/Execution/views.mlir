// Views run on the CPU, fused and unfused, and agree with numpy's slicing
// and transposes (issue 12, item 1).
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s
// RUN: kfuse-opt %s --kf-cpu-pipeline=fusion=off | %run-cpu | %numpy-check %s

// NUMPY: x = np.arange(24, dtype=np.float32).reshape(4, 6) - 7.5

func.func private @printMemrefF32(memref<*xf32>)
func.func @show(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %x = kf.constant dense<[[-7.5, -6.5, -5.5, -4.5, -3.5, -2.5], [-1.5, -0.5, 0.5, 1.5, 2.5, 3.5], [4.5, 5.5, 6.5, 7.5, 8.5, 9.5], [10.5, 11.5, 12.5, 13.5, 14.5, 15.5]]> : tensor<4x6xf32>
  %two = kf.constant dense<2.0> : tensor<f32>

  // NUMPY: expect(x[1:, ::2] * 2)
  %s0 = kf.slice %x starts [1, 0] ends [9223372036854775807, 6] steps [1, 2] : tensor<4x6xf32>
  %0 = kf.mul %s0, %two : tensor<3x3xf32>, tensor<f32>
  %u0 = tensor.cast %0 : tensor<3x3xf32> to tensor<*xf32>
  call @show(%u0) : (tensor<*xf32>) -> ()

  // NUMPY: expect(x[-3:-1, 5:100:3])
  %1 = kf.slice %x starts [-3, 5] ends [-1, 100] steps [1, 3] : tensor<4x6xf32>
  %u1 = tensor.cast %1 : tensor<2x1xf32> to tensor<*xf32>
  call @show(%u1) : (tensor<*xf32>) -> ()

  // NUMPY: expect(np.exp(x.T[1:5:2, ::-1][:, ::-1] / 8) + x.T[1:5:2, :])
  %t = kf.transpose %x [1, 0] : tensor<4x6xf32>
  %s2 = kf.slice %t starts [1, 0] ends [5, 4] steps [2, 1] : tensor<6x4xf32>
  %eight = kf.constant dense<8.0> : tensor<f32>
  %d2 = kf.div %s2, %eight : tensor<2x4xf32>, tensor<f32>
  %e2 = kf.exp %d2 : tensor<2x4xf32>
  %2 = kf.add %e2, %s2 : tensor<2x4xf32>, tensor<2x4xf32>
  %u2 = tensor.cast %2 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%u2) : (tensor<*xf32>) -> ()

  // NUMPY: expect(x + x[:, ::-1][:, ::-1].T.T)
  %tt = kf.transpose %t [1, 0] : tensor<6x4xf32>
  %3 = kf.add %x, %tt : tensor<4x6xf32>, tensor<4x6xf32>
  %u3 = tensor.cast %3 : tensor<4x6xf32> to tensor<*xf32>
  call @show(%u3) : (tensor<*xf32>) -> ()

  // NUMPY: expect(np.ascontiguousarray((x * 2).T).sum(axis=1))
  %m4 = kf.mul %x, %two : tensor<4x6xf32>, tensor<f32>
  %t4 = kf.transpose %m4 [1, 0] : tensor<4x6xf32>
  %c4 = kf.contiguous %t4 : tensor<6x4xf32>
  %4 = kf.sum %c4 dims [1] : tensor<6x4xf32>
  %u4 = tensor.cast %4 : tensor<6xf32> to tensor<*xf32>
  call @show(%u4) : (tensor<*xf32>) -> ()

  // NUMPY: expect(x.T.sum(axis=1) - x[::3, :].max(axis=0))
  %r5a = kf.sum %t dims [1] : tensor<6x4xf32>
  %s5 = kf.slice %x starts [0, 0] ends [4, 6] steps [3, 1] : tensor<4x6xf32>
  %r5b = kf.max %s5 dims [0] : tensor<2x6xf32>
  %5 = kf.sub %r5a, %r5b : tensor<6xf32>, tensor<6xf32>
  %u5 = tensor.cast %5 : tensor<6xf32> to tensor<*xf32>
  call @show(%u5) : (tensor<*xf32>) -> ()

  // The first part of an unbind of a permutation (a slice from 0 that
  // stops short, taken from x itself), read by a matmul.
  // NUMPY: expect(x.reshape(4, 2, 3).transpose(2, 0, 1)[:2].reshape(8, 2) @ x[:2, :3])
  %v6 = kf.reshape %x [4, 2, 3] : tensor<4x6xf32>
  %p6 = kf.transpose %v6 [2, 0, 1] : tensor<4x2x3xf32>
  %s6 = kf.slice %p6 starts [0, 0, 0] ends [2, 4, 2] steps [1, 1, 1] : tensor<3x4x2xf32>
  %r6 = kf.reshape %s6 [8, 2] : tensor<2x4x2xf32>
  %w6 = kf.slice %x starts [0, 0] ends [2, 3] steps [1, 1] : tensor<4x6xf32>
  %6 = kf.matmul %r6, %w6 : tensor<8x2xf32>, tensor<2x3xf32>
  %u6 = tensor.cast %6 : tensor<8x3xf32> to tensor<*xf32>
  call @show(%u6) : (tensor<*xf32>) -> ()
  return
}
