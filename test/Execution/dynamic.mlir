// Functions with dynamic dims, called with concrete sizes.
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s

// NUMPY: x = np.array([[1.0, -2.0, 3.0], [4.0, -5.0, 6.0]], np.float32)
// NUMPY: v = np.array([0.5, 0.25, -1.0], np.float32)

func.func private @printMemrefF32(memref<*xf32>)
func.func @show(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// relu(x + v) * sum over rows, all sizes dynamic.
func.func @kernel(%x: tensor<?x?xf32>, %v: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x1xf32>, tensor<?x3xf32>) {
  %0 = kf.add %x, %v : tensor<?x?xf32>, tensor<?xf32>
  %1 = kf.relu %0 : tensor<?x?xf32>
  %2 = kf.sum %1 dims [1] keepdim : tensor<?x?xf32>
  %3 = kf.reshape %1 [-1, 3] : tensor<?x?xf32>
  return %1, %2, %3 : tensor<?x?xf32>, tensor<?x1xf32>, tensor<?x3xf32>
}

func.func @main() {
  %x = kf.constant dense<[[1.0, -2.0, 3.0], [4.0, -5.0, 6.0]]> : tensor<2x3xf32>
  %v = kf.constant dense<[0.5, 0.25, -1.0]> : tensor<3xf32>
  %xd = tensor.cast %x : tensor<2x3xf32> to tensor<?x?xf32>
  %vd = tensor.cast %v : tensor<3xf32> to tensor<?xf32>
  %r:3 = call @kernel(%xd, %vd) : (tensor<?x?xf32>, tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x1xf32>, tensor<?x3xf32>)
  // NUMPY: r = np.maximum(x + v, 0); expect(r); expect(r.sum(axis=1, keepdims=True)); expect(r.reshape(-1, 3))
  %u0 = tensor.cast %r#0 : tensor<?x?xf32> to tensor<*xf32>
  call @show(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<?x1xf32> to tensor<*xf32>
  call @show(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<?x3xf32> to tensor<*xf32>
  call @show(%u2) : (tensor<*xf32>) -> ()
  return
}
