// kf-assign-kernel-mappings on hand-written kernels: the scan mapping
// serves a prefix scan as kf-to-linalg writes kf.cumsum (ScanToLinalg.cpp)
// with elementwise ops after it, and nothing that only looks like one.
// RUN: kfuse-opt %s -split-input-file --kf-assign-kernel-mappings | FileCheck %s

// A scan along dim 1, then an op over its elements: mapping scan.
// CHECK-LABEL: func.func @scan_then_add
// CHECK: kf.kernel "reduction_cumsum_add_0" kind reduction mapping scan
func.func @scan_then_add(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = kf.kernel "reduction_cumsum_add_0" kind reduction -> tensor<4x8xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %one = arith.constant 1.000000e+00 : f32
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
    %e2 = tensor.empty() : tensor<4x8xf32>
    %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %in, %one : f32
      linalg.yield %v : f32
    } -> tensor<4x8xf32>
    kf.yield %a : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// Not a scan: the term reads i too (out[i] = sum_{j <= i} x[j] * i), so
// it differs from one output to the next; a row reduction serves it (16
// terms: more than a small reduction's 8).
// CHECK-LABEL: func.func @term_reads_i
// CHECK: kf.kernel "reduction_0" kind reduction mapping row
func.func @term_reads_i(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = kf.kernel "reduction_0" kind reduction -> tensor<4x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %e = tensor.empty() : tensor<4x16xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x16xf32>) outs(%f : tensor<4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %kept = arith.cmpi ule, %j, %i : index
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      %w = arith.mulf %in, %fi : f32
      %t = arith.select %kept, %w, %cst : f32
      %v = arith.addf %out, %t : f32
      linalg.yield %v : f32
    } -> tensor<4x16xf32>
    kf.yield %s : tensor<4x16xf32>
  }
  return %r : tensor<4x16xf32>
}
