// Issue 13, item 7: a reshape to [-1, 1, 1] of a dynamic vector, added to
// the vector (an outer sum, [n, 1, n]), flattened and summed. kf-form-kernels
// died with SIGSEGV in SymbolicShapes::dim on this valid program.
// For a = [1, 2, 3] the sum of a[i] + a[j] over i, j is 2 * 3 * 6 = 36.
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels | FileCheck %s
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s
// RUN: %run-check %S/Inputs/reshape-broadcast-sum.mlir --input "arg0=f32[5]" \
// RUN:   --expect "(arg0.reshape(-1, 1, 1) + arg0).reshape(-1).sum()" \
// RUN:   -- --device=cpu --repeat=0 | FileCheck %s --check-prefix=RESULT
// RUN: %run-check %S/Inputs/reshape-broadcast-sum.mlir --input "arg0=f32[1]" \
// RUN:   --expect "(arg0.reshape(-1, 1, 1) + arg0).reshape(-1).sum()" \
// RUN:   -- --device=cpu --repeat=0 --fusion=off | FileCheck %s --check-prefix=RESULT

// CHECK-LABEL: func.func @f
// CHECK: kf.kernel
// CHECK: return
// REPORT: function @f
// REPORT: kernels
// RESULT: run_check: result0 float32[] matches numpy

// NUMPY: a = np.array([1.0, 2.0, 3.0], np.float32)
// NUMPY: expect(np.float32(36.0))

func.func private @printMemrefF32(memref<*xf32>)

func.func @f(%a: tensor<?xf32>) -> tensor<f32> {
  %0 = kf.reshape %a [-1, 1, 1] : tensor<?xf32>
  %1 = kf.add %0, %a : tensor<?x1x1xf32>, tensor<?xf32>
  %2 = kf.reshape %1 [-1] : tensor<?x1x?xf32>
  %3 = kf.sum %2 : tensor<?xf32>
  return %3 : tensor<f32>
}

func.func @main() {
  %a = kf.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %ad = tensor.cast %a : tensor<3xf32> to tensor<?xf32>
  %s = call @f(%ad) : (tensor<?xf32>) -> tensor<f32>
  %u = tensor.cast %s : tensor<f32> to tensor<*xf32>
  %m = bufferization.to_buffer %u : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}
