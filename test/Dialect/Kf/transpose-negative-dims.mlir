// Issue 13, item 20: kf.transpose takes negative dims as torch.permute does
// (-1 is the last dim), as the reductions' dims already did; it refused
// them. The attribute keeps what was written; types, folds and the lowering
// use the normalized permutation.
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-to-linalg | FileCheck %s --check-prefix=LINALG
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --canonicalize | FileCheck %s --check-prefix=FOLD

// CHECK-LABEL: func.func @negative
// CHECK: kf.transpose %{{.*}} [-1, 0, -2] : tensor<2x3x4xf32>
// CHECK: return %{{.*}} : tensor<4x2x3xf32>
// [-1, 0, -2] is [2, 0, 1]: input dims (0, 1, 2) are read at loops (d1, d2, d0).
// LINALG-DAG: #[[PERM:.*]] = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
// LINALG-LABEL: func.func @negative
// LINALG: linalg.generic {indexing_maps = [#[[PERM]], #{{.*}}], {{.*}} ins(%{{.*}} : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<4x2x3xf32>) attrs = {kf.op = "transpose", kf.view}
func.func @negative(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = kf.transpose %x [-1, 0, -2] : tensor<2x3x4xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// [-2, -1] is the identity; [-1, -2] twice is too.
// FOLD-LABEL: func.func @identities
// FOLD-NOT: kf.transpose
// FOLD: return %arg0, %arg0
func.func @identities(%x: tensor<3x5xf32>) -> (tensor<3x5xf32>, tensor<3x5xf32>) {
  %0 = kf.transpose %x [-2, -1] : tensor<3x5xf32>
  %1 = kf.transpose %x [-1, -2] : tensor<3x5xf32>
  %2 = kf.transpose %1 [1, -2] : tensor<5x3xf32>
  return %0, %2 : tensor<3x5xf32>, tensor<3x5xf32>
}

// -----

func.func @too_negative(%x: tensor<3x5xf32>) {
  // expected-error @+1 {{'kf.transpose' [-3, 0] is not a permutation of the 2 dims of 3x5}}
  %0 = kf.transpose %x [-3, 0] : tensor<3x5xf32>
  return
}

// -----

// -1 and 1 name the same dim of a rank-2 tensor.
func.func @repeated(%x: tensor<3x5xf32>) {
  // expected-error @+1 {{'kf.transpose' [-1, 1] is not a permutation of the 2 dims of 3x5}}
  %0 = kf.transpose %x [-1, 1] : tensor<3x5xf32>
  return
}
