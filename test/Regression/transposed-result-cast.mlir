// Found by kf_fuzz.py (seed 503, --kinds transposed_epilogue, the emulated
// GPU): a row kernel whose last op writes through a permutation (the
// log of the transposed x - x.mean(1), [2, 5] -> [5, 2]) and whose
// result the canonicalizer made static, yielding a tensor.cast back to
// ?x?. kf-materialize-kernel-results copied the cast value with an
// identity op over [5, 2], which no row mapping runs (its on-chip plan
// failed: "its buffers alias in a way the on-chip form does not
// follow"). Now the kernel yields the value it computed and the cast
// follows the kernel.
// RUN: kfuse-opt %s --kf-gpu-emulation-pipeline -o /dev/null
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s
// RUN: kfuse-opt %s --kf-gpu-pipeline --mlir-print-ir-after=kf-materialize-kernel-results -o /dev/null 2>&1 | FileCheck %s
// CHECK-LABEL: func.func @p503_32
// CHECK: %[[K:.*]] = kf.kernel "reduction_mean_sub_log_cast_{{[0-9]+}}" kind reduction {{.*}}-> tensor<5x2xf32>
// CHECK-NOT: kf.op = "copy"
// CHECK: kf.yield %{{.*}} : tensor<5x2xf32>
// CHECK: tensor.cast %[[K]] : tensor<5x2xf32> to tensor<?x?xf32>

// DIMS @p503_32: 5 2
func.func @p503_32(%arg0: tensor<?x?xbf16>, %arg3: tensor<2x5xbf16>) -> (tensor<?x?xbf16>) {
  %v0 = kf.log_softmax %arg0 dim 1 : tensor<?x?xbf16>
  %v1 = kf.transpose %v0 [1, 0] : tensor<?x?xbf16>
  %v2 = kf.reciprocal %v1 : tensor<?x?xbf16>
  %v5 = kf.rms_norm %v2 weight %arg3 : tensor<2x5xbf16> normalized_shape [2, 5] : tensor<?x?xbf16>
  %v7 = kf.mean %v5 dims [1] keepdim : tensor<?x?xbf16>
  %v8 = kf.sub %v5, %v7 : tensor<?x?xbf16>, tensor<?x1xbf16>
  %v9 = kf.transpose %v8 [1, 0] : tensor<?x?xbf16>
  %v10 = kf.log %v9 : tensor<?x?xbf16>
  %v30 = kf.softmax %v10 dim 1 : tensor<?x?xbf16>
  return %v30 : tensor<?x?xbf16>
}
