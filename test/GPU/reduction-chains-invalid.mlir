// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-assign-kernel-mappings

// A "final" reduction over the rows and the columns (x.sum(1) then x.sum()):
// the last block alone would reduce the whole tensor. Refused.
func.func @final_over_columns(%x: tensor<6x50xf32>) -> (tensor<6xf32>, tensor<f32>) {
  // expected-error @+1 {{kernel 'reduction_sum_sum_0' (reduction, 4 linalg ops) cannot be mapped to the GPU yet: its final reduction is not over its rows (the last block strides over the rows' values only)}}
  %r:2 = kf.kernel "reduction_sum_sum_0" kind reduction -> tensor<6xf32>, tensor<f32> {
    %cst = arith.constant 0.000000e+00 : f32
    %e0 = tensor.empty() : tensor<6xf32>
    %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<6xf32>) -> tensor<6xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x50xf32>) outs(%f0 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<6xf32>
    %e1 = tensor.empty() : tensor<f32>
    %f1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<f32>) -> tensor<f32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : tensor<6x50xf32>) outs(%f1 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<f32>
    kf.yield %s, %t : tensor<6xf32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<6xf32>, tensor<f32>
}

// -----

// An op over the rows after the final reduction (s - s.sum()): only the
// last block has the total, and it does not own the rows. Refused.
func.func @rows_after_final(%x: tensor<6x50xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{kernel 'reduction_sum_sum_sub_0' (reduction, 5 linalg ops) cannot be mapped to the GPU yet: an op after its final reduction is not over its one value}}
  %r = kf.kernel "reduction_sum_sum_sub_0" kind reduction -> tensor<6xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %e0 = tensor.empty() : tensor<6xf32>
    %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<6xf32>) -> tensor<6xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x50xf32>) outs(%f0 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<6xf32>
    %e1 = tensor.empty() : tensor<f32>
    %f1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<f32>) -> tensor<f32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%s : tensor<6xf32>) outs(%f1 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<f32>
    %e2 = tensor.empty() : tensor<6xf32>
    %d = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s, %t : tensor<6xf32>, tensor<f32>) outs(%e2 : tensor<6xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %v = arith.subf %a, %b : f32
      linalg.yield %v : f32
    } -> tensor<6xf32>
    kf.yield %d : tensor<6xf32>
  }
  return %r : tensor<6xf32>
}

// -----

// A second reduction that keeps rows of its own (x.sum(2).sum(1) on
// [4, 5, 6]: 4 rows left): no final value for a last block, and not the
// first reduction's rows. Refused as before.
func.func @second_reduction_keeps_rows(%x: tensor<4x5x6xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{kernel 'reduction_sum_sum_0' (reduction, 4 linalg ops) cannot be mapped to the GPU yet: its reductions are over different rows}}
  %r = kf.kernel "reduction_sum_sum_0" kind reduction -> tensor<4xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %e0 = tensor.empty() : tensor<4x5xf32>
    %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<4x5xf32>) -> tensor<4x5xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x5x6xf32>) outs(%f0 : tensor<4x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<4x5xf32>
    %e1 = tensor.empty() : tensor<4xf32>
    %f1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<4x5xf32>) outs(%f1 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<4xf32>
    kf.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A final reduction that accumulates into a value from outside the kernel
// (not from its identity): the last block's threads could not each start
// from the identity. Refused.
func.func @final_not_from_identity(%x: tensor<6x50xf32>, %init: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{kernel 'reduction_sum_sum_0' (reduction, 3 linalg ops) cannot be mapped to the GPU yet: a reduction is not a combination from its identity}}
  %r = kf.kernel "reduction_sum_sum_0" kind reduction -> tensor<f32> {
    %cst = arith.constant 0.000000e+00 : f32
    %e0 = tensor.empty() : tensor<6xf32>
    %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<6xf32>) -> tensor<6xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x50xf32>) outs(%f0 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<6xf32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%s : tensor<6xf32>) outs(%init : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<f32>
    kf.yield %t : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// A row reduction after the final reduction (the rows' maxima computed
// after the total): the rows are done when the last block runs. Refused
// (kernel formation puts the row part first).
func.func @row_reduction_after_final(%x: tensor<6x50xf32>) -> (tensor<f32>, tensor<6xf32>) {
  // expected-error @+1 {{kernel 'reduction_sum_sum_max_0' (reduction, 6 linalg ops) cannot be mapped to the GPU yet: a reduction after its final reduction keeps rows}}
  %r:2 = kf.kernel "reduction_sum_sum_max_0" kind reduction -> tensor<f32>, tensor<6xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %e0 = tensor.empty() : tensor<6xf32>
    %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<6xf32>) -> tensor<6xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x50xf32>) outs(%f0 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<6xf32>
    %e1 = tensor.empty() : tensor<f32>
    %f1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<f32>) -> tensor<f32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%s : tensor<6xf32>) outs(%f1 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<f32>
    %e2 = tensor.empty() : tensor<6xf32>
    %f2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<6xf32>) -> tensor<6xf32>
    %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x50xf32>) outs(%f2 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.maximumf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<6xf32>
    kf.yield %t, %m : tensor<f32>, tensor<6xf32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<6xf32>
}
