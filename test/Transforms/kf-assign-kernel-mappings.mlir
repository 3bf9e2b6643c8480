// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-assign-kernel-mappings | FileCheck %s

// A pointwise kernel (two outputs over one shape) is mapped flat.
// CHECK-LABEL: func.func @pointwise
// CHECK: kf.kernel "pointwise_exp_neg_0" kind pointwise mapping flat
// CHECK-COUNT-2: linalg.generic
func.func @pointwise(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %r:2 = kf.kernel "pointwise_exp_neg_0" kind pointwise -> tensor<8xf32>, tensor<8xf32> {
    %e0 = tensor.empty() : tensor<8xf32>
    %e = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e0 : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = math.exp %a : f32
      linalg.yield %v : f32
    } -> tensor<8xf32>
    %n0 = tensor.empty() : tensor<8xf32>
    %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%e : tensor<8xf32>) outs(%n0 : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.negf %a : f32
      linalg.yield %v : f32
    } -> tensor<8xf32>
    kf.yield %e, %n : tensor<8xf32>, tensor<8xf32>
  }
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A reduction that accumulates into a value from outside the kernel (not a
// fill of its identity) cannot start each thread from the identity:
// refused with the kernel's name.
func.func @reduction(%x: tensor<8xf32>, %init: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{kernel 'reduction_sum_0' (reduction, 1 linalg ops) cannot be mapped to the GPU yet: a reduction is not a combination from its identity}}
  %r = kf.kernel "reduction_sum_0" kind reduction -> tensor<f32> {
    %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : tensor<8xf32>) outs(%init : tensor<f32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %a, %o : f32
      linalg.yield %v : f32
    } -> tensor<f32>
    kf.yield %s : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// The second op reads the first's result transposed: one thread could not
// compute its element from its own.
func.func @transposed_read(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{kernel 'pointwise_exp_neg_0' (pointwise, 2 linalg ops) cannot be mapped to the GPU yet: an op reads another's result at other elements}}
  %r = kf.kernel "pointwise_exp_neg_0" kind pointwise -> tensor<4x4xf32> {
    %e0 = tensor.empty() : tensor<4x4xf32>
    %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e0 : tensor<4x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = math.exp %a : f32
      linalg.yield %v : f32
    } -> tensor<4x4xf32>
    %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<4x4xf32>) outs(%e0 : tensor<4x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.negf %a : f32
      linalg.yield %v : f32
    } -> tensor<4x4xf32>
    kf.yield %n : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// -----

// A row kernel (softmax over rows: reductions and elementwise ops over the
// same rows) is mapped row: one block a row.
// CHECK-LABEL: func.func @softmax_rows
// CHECK: kf.kernel "reduction_max_sub_exp_sum_div_0" kind reduction mapping row
func.func @softmax_rows(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = kf.kernel "reduction_max_sub_exp_sum_div_0" kind reduction -> tensor<4x8xf32> {
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<4xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
    %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%m0 : tensor<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.maximumf %o, %a : f32
      linalg.yield %v : f32
    } -> tensor<4xf32>
    %e1 = tensor.empty() : tensor<4x8xf32>
    %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<4x8xf32>, tensor<4xf32>) outs(%e1 : tensor<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %d = arith.subf %a, %b : f32
      %v = math.exp %d : f32
      linalg.yield %v : f32
    } -> tensor<4x8xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<4x8xf32>) outs(%s0 : tensor<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %o, %a : f32
      linalg.yield %v : f32
    } -> tensor<4xf32>
    %e3 = tensor.empty() : tensor<4x8xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ex, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%e3 : tensor<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %v = arith.divf %a, %b : f32
      linalg.yield %v : f32
    } -> tensor<4x8xf32>
    kf.yield %y : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// Warp shuffles move 32 bits; an f64 reduction is served all the same (its
// values travel in two halves). (64 columns: a reduction of at most 8
// elements would take the flat mapping, a thread per row.)
// CHECK-LABEL: func.func @f64_sum
// CHECK: kf.kernel "reduction_sum_0" kind reduction mapping row
func.func @f64_sum(%x: tensor<4x64xf64>) -> tensor<4xf64> {
  %r = kf.kernel "reduction_sum_0" kind reduction -> tensor<4xf64> {
    %zero = arith.constant 0.0 : f64
    %e = tensor.empty() : tensor<4xf64>
    %s0 = linalg.fill ins(%zero : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x64xf64>) outs(%s0 : tensor<4xf64>) {
    ^bb0(%a: f64, %o: f64):
      %v = arith.addf %o, %a : f64
      linalg.yield %v : f64
    } -> tensor<4xf64>
    kf.yield %s : tensor<4xf64>
  }
  return %r : tensor<4xf64>
}

// -----

// A matmul accumulating into a value from outside the kernel (not a fill)
// is refused: the tiled mapping starts every element from the fill.
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{kernel 'matmul_0' (matmul, 1 linalg ops) cannot be mapped to the GPU yet: the matmul does not start from a constant fill}}
  %r = kf.kernel "matmul_0" kind matmul -> tensor<4x2xf32> {
    %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
    kf.yield %m : tensor<4x2xf32>
  }
  return %r : tensor<4x2xf32>
}

// -----

// A reduction accumulating in f16 (kf-to-linalg never makes one: f16 sums
// accumulate in f32) is a row kernel like any other; the warp shuffles
// carry its values widened to 32 bits.
// CHECK-LABEL: func.func @f16_sum
// CHECK: kf.kernel "reduction_sum_0" kind reduction mapping row
func.func @f16_sum(%x: tensor<4x64xf16>) -> tensor<4xf16> {
  %r = kf.kernel "reduction_sum_0" kind reduction -> tensor<4xf16> {
    %zero = arith.constant 0.0 : f16
    %e = tensor.empty() : tensor<4xf16>
    %s0 = linalg.fill ins(%zero : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x64xf16>) outs(%s0 : tensor<4xf16>) {
    ^bb0(%a: f16, %o: f16):
      %v = arith.addf %o, %a : f16
      linalg.yield %v : f16
    } -> tensor<4xf16>
    kf.yield %s : tensor<4xf16>
  }
  return %r : tensor<4xf16>
}

// -----

// An attention kernel that holds one matmul is refused: the attention
// mapping computes softmax(q @ k^T ...) @ v and nothing else
// (analysis/Attention.h).
func.func @attention_one_matmul(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{kernel 'attention_0' (attention, 2 linalg ops) cannot be mapped to the GPU yet: an attention holds two matmuls, this kernel 1}}
  %r = kf.kernel "attention_0" kind attention -> tensor<4x2xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x2xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
    kf.yield %m : tensor<4x2xf32>
  }
  return %r : tensor<4x2xf32>
}

// -----

// Two matmuls with exp between them, no softmax: refused (the online
// softmax the mapping computes would not be this program).
func.func @attention_without_softmax(%q: tensor<4x8xf32>, %k: tensor<8x6xf32>, %v: tensor<6x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{kernel 'attention_0' (attention, 5 linalg ops) cannot be mapped to the GPU yet: the scores are not read by a softmax's max}}
  %r = kf.kernel "attention_0" kind attention -> tensor<4x2xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x6xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
    %s = linalg.matmul ins(%q, %k : tensor<4x8xf32>, tensor<8x6xf32>) outs(%c : tensor<4x6xf32>) -> tensor<4x6xf32>
    %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
    ^bb0(%a: f32, %o: f32):
      %y = math.exp %a : f32
      linalg.yield %y : f32
    } -> tensor<4x6xf32>
    %e2 = tensor.empty() : tensor<4x2xf32>
    %c2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %o = linalg.matmul ins(%x, %v : tensor<4x6xf32>, tensor<6x2xf32>) outs(%c2 : tensor<4x2xf32>) -> tensor<4x2xf32>
    kf.yield %o : tensor<4x2xf32>
  }
  return %r : tensor<4x2xf32>
}

// -----

// An attention whose score op computes a causal mask from its loop
// indices (linalg.index): refused, since the host's kernel rebuilds the
// score ops on vectors of keys and takes arith and math ops only
// (analysis/Attention.cpp). Kernel formation never forms this one: it
// asks the same matcher.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @attention_index_mask(%q: tensor<4x8xf32>, %k: tensor<8x6xf32>, %v: tensor<6x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{kernel 'attention_0' (attention, 12 linalg ops) cannot be mapped to the GPU yet: a score op's body is not arith and math ops on scalars}}
  %r = kf.kernel "attention_0" kind attention -> tensor<4x2xf32> {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %e = tensor.empty() : tensor<4x6xf32>
    %e4 = tensor.empty() : tensor<4xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
    %s = linalg.matmul ins(%q, %k : tensor<4x8xf32>, tensor<8x6xf32>) outs(%c : tensor<4x6xf32>) -> tensor<4x6xf32>
    %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
    ^bb0(%a: f32, %o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %later = arith.cmpi ugt, %j, %i : index
      %y = arith.select %later, %ninf, %a : f32
      linalg.yield %y : f32
    } -> tensor<4x6xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
    %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x6xf32>) outs(%m0 : tensor<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %y = arith.maximumf %o, %a : f32
      linalg.yield %y : f32
    } -> tensor<4xf32>
    %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<4x6xf32>, tensor<4xf32>) outs(%e : tensor<4x6xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %y = arith.subf %a, %b : f32
      linalg.yield %y : f32
    } -> tensor<4x6xf32>
    %ex = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%d : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
    ^bb0(%a: f32, %o: f32):
      %y = math.exp %a : f32
      linalg.yield %y : f32
    } -> tensor<4x6xf32>
    %s0 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
    %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<4x6xf32>) outs(%s0 : tensor<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %y = arith.addf %o, %a : f32
      linalg.yield %y : f32
    } -> tensor<4xf32>
    %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%ex, %sum : tensor<4x6xf32>, tensor<4xf32>) outs(%e : tensor<4x6xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %y = arith.divf %a, %b : f32
      linalg.yield %y : f32
    } -> tensor<4x6xf32>
    %e2 = tensor.empty() : tensor<4x2xf32>
    %c2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %o = linalg.matmul ins(%p, %v : tensor<4x6xf32>, tensor<6x2xf32>) outs(%c2 : tensor<4x2xf32>) -> tensor<4x2xf32>
    kf.yield %o : tensor<4x2xf32>
  }
  return %r : tensor<4x2xf32>
}
