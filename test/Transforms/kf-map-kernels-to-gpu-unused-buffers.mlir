// After mapping, a buffer no launch touches (an intermediate that the row
// mapping keeps on chip) is erased with its deallocs: a softmax allocates
// its result only, not the row maxima, exp(x - max) or the row sums that
// one-shot bufferization gave buffers of their own.
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings \
// RUN:   --one-shot-bufferize=bufferize-function-boundaries --kf-hoist-kernel-buffers \
// RUN:   --kf-map-kernels-to-gpu | FileCheck %s
// Without the mapping, the kernel holds four buffers (three intermediates
// and the result): the count the erasure takes down to one.
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings \
// RUN:   --one-shot-bufferize=bufferize-function-boundaries --kf-hoist-kernel-buffers \
// RUN:   | FileCheck %s --check-prefix=BEFORE

// CHECK-LABEL: func.func @softmax
// CHECK: %[[Y:.*]] = memref.alloc() {{.*}}: memref<64x1024xf32>
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch
// CHECK-NOT: memref.alloc
// CHECK: return %[[Y]]
// BEFORE-LABEL: func.func @softmax
// BEFORE-COUNT-4: memref.alloc
// BEFORE: kf.kernel
func.func @softmax(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %y = kf.softmax %x dim -1 : tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}
