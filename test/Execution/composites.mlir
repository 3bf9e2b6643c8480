// softmax, log_softmax and layer_norm after decomposition, executed.
// RUN: kfuse-opt %s --kf-decompose --kf-cpu-pipeline | %run-cpu | %numpy-check %s

// NUMPY: x = np.array([[1.0, 2.0, 3.0, 4.0], [-1.0, 0.0, 10.0, 0.5], [100.0, 100.0, 100.0, 100.0]], np.float32)
// NUMPY: def softmax(v, axis):
// NUMPY:     e = np.exp(v - v.max(axis=axis, keepdims=True))
// NUMPY:     return e / e.sum(axis=axis, keepdims=True)
// NUMPY: w = np.array([1.0, 0.5, 2.0, -1.0], np.float32)
// NUMPY: b = np.array([0.0, 1.0, -1.0, 0.25], np.float32)
// NUMPY: mu = x.mean(axis=-1, keepdims=True)
// NUMPY: var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
// NUMPY: norm = (x - mu) / np.sqrt(var + 1e-5)

func.func private @printMemrefF32(memref<*xf32>)
func.func @show(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %x = kf.constant dense<[[1.0, 2.0, 3.0, 4.0], [-1.0, 0.0, 10.0, 0.5], [100.0, 100.0, 100.0, 100.0]]> : tensor<3x4xf32>
  %w = kf.constant dense<[1.0, 0.5, 2.0, -1.0]> : tensor<4xf32>
  %b = kf.constant dense<[0.0, 1.0, -1.0, 0.25]> : tensor<4xf32>

  // NUMPY: expect(softmax(x, 1)); expect(softmax(x, 0))
  %0 = kf.softmax %x dim 1 : tensor<3x4xf32>
  %u0 = tensor.cast %0 : tensor<3x4xf32> to tensor<*xf32>
  call @show(%u0) : (tensor<*xf32>) -> ()
  %1 = kf.softmax %x dim 0 : tensor<3x4xf32>
  %u1 = tensor.cast %1 : tensor<3x4xf32> to tensor<*xf32>
  call @show(%u1) : (tensor<*xf32>) -> ()

  // NUMPY: expect(np.log(softmax(x, 1)))
  %2 = kf.log_softmax %x dim -1 : tensor<3x4xf32>
  %u2 = tensor.cast %2 : tensor<3x4xf32> to tensor<*xf32>
  call @show(%u2) : (tensor<*xf32>) -> ()

  // The constant row has zero variance: eps keeps it finite (all zeros).
  // NUMPY: expect(norm, atol=1e-4); expect(norm * w + b, atol=1e-4)
  %3 = kf.layer_norm %x normalized_shape [4] eps 1.0e-05 : tensor<3x4xf32>
  %u3 = tensor.cast %3 : tensor<3x4xf32> to tensor<*xf32>
  call @show(%u3) : (tensor<*xf32>) -> ()
  %4 = kf.layer_norm %x weight %w : tensor<4xf32> bias %b : tensor<4xf32> normalized_shape [4] eps 1.0e-05 : tensor<3x4xf32>
  %u4 = tensor.cast %4 : tensor<3x4xf32> to tensor<*xf32>
  call @show(%u4) : (tensor<*xf32>) -> ()
  return
}
