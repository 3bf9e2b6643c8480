// Found by kf_fuzz.py run against the GPU mapping (seed 1, program 57, once
// the generator made gathers): a row kernel (a batch_norm's mean over [?, 3])
// held ops over the 3 * d0 elements of its input collapsed into one dim
// (reshape [-1]). Both the rows and that dim are `?`, and the row mapping
// compared static sizes only, so it took the ops for ops over the d0 rows
// and wrote d0 of their 3 * d0 elements (the result was all zeros in the
// emulation). The mapping now compares dynamic sizes as polynomials in the
// function's dynamic dims (3 * d0 is not d0) and refuses such a kernel.
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// The kernel is refused; its ops are kept apart.
// CHECK: unmappable: no GPU mapping serves the fused kernel ({{.*}}: its ops iterate over different rows)

// DIMS @p1_57: 8
func.func @p1_57(%arg1: tensor<?x3xf32>, %arg2: tensor<i32>, %arg3: tensor<3xf32>, %arg4: tensor<3xf32>) -> (tensor<?xf32>) {
  %v1 = kf.floor %arg1 : tensor<?x3xf32>
  %v2 = kf.cast %v1 : tensor<?x3xf32> to f32
  %v3 = kf.transpose %v2 [0, 1] : tensor<?x3xf32>
  %v6 = kf.reshape %v2 [-1] : tensor<?x3xf32>
  %v8 = kf.abs %arg4 : tensor<3xf32>
  %v9 = kf.batch_norm %v3, %arg3, %v8 eps 1.0e-05 : tensor<?x3xf32>, tensor<3xf32>, tensor<3xf32>
  %v10 = kf.maximum %v6, %arg2 : tensor<?xf32>, tensor<i32>
  %v12 = kf.mean %v9 dims [1] : tensor<?x3xf32>
  %v13 = kf.sigmoid %v12 : tensor<?xf32>
  %v17 = kf.slice %arg3 starts [1] ends [2] steps [1] : tensor<3xf32>
  %v18 = kf.ne %v10, %v17 : tensor<?xf32>, tensor<1xf32>
  %v23 = kf.min %v18 dims [0] : tensor<?xi1>
  %v26 = kf.div %v12, %v23 : tensor<?xf32>, tensor<i1>
  %v44 = kf.div %v13, %v26 : tensor<?xf32>, tensor<?xf32>
  return %v44 : tensor<?xf32>
}
