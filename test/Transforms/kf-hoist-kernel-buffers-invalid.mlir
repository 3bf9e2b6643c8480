// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-hoist-kernel-buffers

// The size of this buffer is read by the kernel itself (a memref.load, not
// free of effects, stays in the kernel): the allocation cannot move before
// the kernel, and a launch cannot allocate. Refused.
func.func @size_from_inside(%n: memref<index>) -> memref<?xf32> {
  %r = kf.kernel "pointwise_fill_0" kind pointwise mapping flat -> memref<?xf32> {
    %d = memref.load %n[] : memref<index>
    // expected-error @+1 {{kernel 'pointwise_fill_0' allocates a buffer whose size it computes itself: a launch cannot allocate}}
    %a = memref.alloc(%d) : memref<?xf32>
    kf.yield %a : memref<?xf32>
  }
  return %r : memref<?xf32>
}

// -----

// A kernel still on tensors has not been bufferized: refused, not guessed.
func.func @tensors(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{kernel 'pointwise_id_0' is not bufferized: run one-shot-bufferize first}}
  %r = kf.kernel "pointwise_id_0" kind pointwise mapping flat -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
