// Issue 13, item 20: kf.transpose with negative dims (as torch.permute)
// computes what numpy's transpose with the same axes computes, fused and
// unfused on the CPU.
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s
// RUN: kfuse-opt %s --kf-cpu-pipeline=fusion=off | %run-cpu | %numpy-check %s

// NUMPY: x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
// NUMPY: expect(np.transpose(x, (-1, 0, -2)) + 1)

func.func private @printMemrefF32(memref<*xf32>)

func.func @permute(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = kf.transpose %x [-1, 0, -2] : tensor<2x3x4xf32>
  %one = kf.constant dense<1.0> : tensor<f32>
  %1 = kf.add %0, %one : tensor<4x2x3xf32>, tensor<f32>
  return %1 : tensor<4x2x3xf32>
}

func.func @main() {
  %x = kf.constant dense<[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]],
                          [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]]> : tensor<2x3x4xf32>
  %r = call @permute(%x) : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %u = tensor.cast %r : tensor<4x2x3xf32> to tensor<*xf32>
  %m = bufferization.to_buffer %u : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}
