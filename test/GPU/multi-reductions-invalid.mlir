// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-assign-kernel-mappings

// Reductions over dim 0 and dim 2 of one tensor (written by hand: kernel
// formation does not form it): dim 1 is a row of both, so neither side's
// values are the other's rows or columns. Not a multi-reduction, and no
// row kernel: refused.
func.func @not_complementary(%x: tensor<4x8x16xf32>) -> (tensor<8x16xf32>, tensor<4x8xf32>) {
  // expected-error @+1 {{kernel 'reduction_sum_sum_0' (reduction, 4 linalg ops) cannot be mapped to the GPU yet: its reductions are over different rows}}
  %r:2 = kf.kernel "reduction_sum_sum_0" kind reduction -> tensor<8x16xf32>, tensor<4x8xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %e0 = tensor.empty() : tensor<8x16xf32>
    %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%x : tensor<4x8x16xf32>) outs(%f0 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<8x16xf32>
    %e1 = tensor.empty() : tensor<4x8xf32>
    %f1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x8x16xf32>) outs(%f1 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<4x8xf32>
    kf.yield %a, %b : tensor<8x16xf32>, tensor<4x8xf32>
  }
  return %r#0, %r#1 : tensor<8x16xf32>, tensor<4x8xf32>
}

// -----

// A column sum, a row sum, and an op over rows x columns reading both
// (their outer sum): no side's epilogue (the columns' values are final
// only in the last block), and no row kernel. Refused.
func.func @reads_both_sides(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{kernel 'reduction_sum_sum_add_0' (reduction, 5 linalg ops) cannot be mapped to the GPU yet: its reductions are over different rows}}
  %r = kf.kernel "reduction_sum_sum_add_0" kind reduction -> tensor<64x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %e0 = tensor.empty() : tensor<32xf32>
    %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<32xf32>) -> tensor<32xf32>
    %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<64x32xf32>) outs(%f0 : tensor<32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<32xf32>
    %e1 = tensor.empty() : tensor<64xf32>
    %f1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
    %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x32xf32>) outs(%f1 : tensor<64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<64xf32>
    %e2 = tensor.empty() : tensor<64x32xf32>
    %o = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b, %a : tensor<64xf32>, tensor<32xf32>) outs(%e2 : tensor<64x32xf32>) {
    ^bb0(%p: f32, %q: f32, %out: f32):
      %v = arith.addf %p, %q : f32
      linalg.yield %v : f32
    } -> tensor<64x32xf32>
    kf.yield %o : tensor<64x32xf32>
  }
  return %r : tensor<64x32xf32>
}

// -----

// A column sum and a row sum that start from 1 (a fill that is no
// identity: every band's partial would count it again). Refused.
func.func @not_from_identity(%x: tensor<64x32xf32>) -> (tensor<32xf32>, tensor<64xf32>) {
  // expected-error @+1 {{kernel 'reduction_sum_sum_0' (reduction, 4 linalg ops) cannot be mapped to the GPU yet: a reduction is not a combination from its identity}}
  %r:2 = kf.kernel "reduction_sum_sum_0" kind reduction -> tensor<32xf32>, tensor<64xf32> {
    %one = arith.constant 1.000000e+00 : f32
    %e0 = tensor.empty() : tensor<32xf32>
    %f0 = linalg.fill ins(%one : f32) outs(%e0 : tensor<32xf32>) -> tensor<32xf32>
    %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<64x32xf32>) outs(%f0 : tensor<32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<32xf32>
    %e1 = tensor.empty() : tensor<64xf32>
    %f1 = linalg.fill ins(%one : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
    %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x32xf32>) outs(%f1 : tensor<64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<64xf32>
    kf.yield %a, %b : tensor<32xf32>, tensor<64xf32>
  }
  return %r#0, %r#1 : tensor<32xf32>, tensor<64xf32>
}
