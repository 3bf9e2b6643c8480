// What the scan mapping refuses: a kernel holding a prefix scan and any op
// it does not run (kernel formation forms none: it forms the kernel again
// with the scan apart, test/Fusion/cumsum.mlir).
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-assign-kernel-mappings

// A scan and a row sum of its result: the sum reads the whole line, which
// a scan's thread has only at its end.
func.func @scan_then_sum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{kernel 'reduction_cumsum_sum_0' (reduction, 4 linalg ops) cannot be mapped to the GPU yet: a prefix scan (kf.cumsum) is a kernel of its own: the scan mapping walks each line in order, and runs nothing else}}
  %r = kf.kernel "reduction_cumsum_sum_0" kind reduction -> tensor<4xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %e = tensor.empty() : tensor<4x8xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %kept = arith.cmpi ule, %j, %i : index
      %t = arith.select %kept, %in, %cst : f32
      %v = arith.addf %out, %t : f32
      linalg.yield %v : f32
    } -> tensor<4x8xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %f2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<4x8xf32>) outs(%f2 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<4xf32>
    kf.yield %sum : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Two scans of one input in one kernel: each is a kernel of its own.
func.func @two_scans(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // expected-error @+1 {{kernel 'reduction_cumsum_cumsum_0' (reduction, 4 linalg ops) cannot be mapped to the GPU yet: a prefix scan (kf.cumsum) is a kernel of its own}}
  %r:2 = kf.kernel "reduction_cumsum_cumsum_0" kind reduction -> tensor<4x8xf32>, tensor<4x8xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %e = tensor.empty() : tensor<4x8xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %kept = arith.cmpi ule, %j, %i : index
      %t = arith.select %kept, %in, %cst : f32
      %v = arith.addf %out, %t : f32
      linalg.yield %v : f32
    } -> tensor<4x8xf32>
    %f2 = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %s2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f2 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 2 : index
      %kept = arith.cmpi ule, %j, %i : index
      %t = arith.select %kept, %in, %cst : f32
      %v = arith.addf %out, %t : f32
      linalg.yield %v : f32
    } -> tensor<4x8xf32>
    kf.yield %s, %s2 : tensor<4x8xf32>, tensor<4x8xf32>
  }
  return %r#0, %r#1 : tensor<4x8xf32>, tensor<4x8xf32>
}
