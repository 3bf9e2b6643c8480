// Small static reductions in the flat mapping: a pointwise kernel may hold
// a reduction whose reduced loops are static with at most 8 elements in
// all (pairwise distances over a last dim of 4), with its accumulator fill
// and pointwise ops over its result (mean's division). A thread per result
// element starts from the fill's value and folds its terms unrolled, in the
// CPU loop nest's order (a float sum with the CPU's compensated step), so
// the emulated GPU mapping equals the CPU pipeline bit for bit
// (--rtol=0 --atol=0). The kernels are written by hand, as kernel
// formation leaves them once its bodies are merged. More elements, a
// dynamic reduced size, a result out of loop order, a read at another
// element or an accumulator from outside the kernel is refused with the
// reason.
// RUN: rm -rf %t && split-file %s %t
// RUN: kfuse-opt %t/run.mlir --kf-assign-kernel-mappings | FileCheck %t/run.mlir --check-prefix=MAPPING
// RUN: %fusion-diff --rtol=0 --atol=0 --candidate=--kf-gpu-emulation-pipeline %t/run.mlir
// RUN: %fusion-diff --rtol=0 --atol=0 --candidate=--kf-gpu-emulation-pipeline=block-size=64 %t/run.mlir
// RUN: kfuse-compile %t/run.mlir --emit=gpu | FileCheck %t/run.mlir --check-prefix=LAUNCH
// RUN: kfuse-compile %t/run.mlir --emit=ptx -o %t/run.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_75 %t/run.ptx -o %t/run.cubin %}
// RUN: kfuse-opt %t/refused.mlir -split-input-file -verify-diagnostics --kf-assign-kernel-mappings

//--- run.mlir
// DIMS: 300

// ((a[:, None, :] - b[None, :, :]) ** 2).mean(-1): the elementwise
// producers merged into the sum, then the division by 4 (and a sqrt:
// the distance).
// MAPPING-LABEL: func.func @pairwise_mean
// MAPPING: kf.kernel "pointwise_sub_mul_sum_div_sqrt_0" kind pointwise mapping flat
// The launch: a thread per [5, 3] result element, the 4 terms unrolled
// (each a compensated step: subf, addf, ...), then the division; no loop.
// LAUNCH-LABEL: gpu.func @pointwise_sub_mul_sum_div_sqrt_0(
// LAUNCH-NOT: scf.for
// LAUNCH-COUNT-4: memref.load %{{.*}} : memref<3x4xf32>
// LAUNCH-NOT: scf.for
// LAUNCH: arith.divf
// LAUNCH: memref.store %{{.*}} : memref<5x3xf32>
// LAUNCH: gpu.return
func.func @pairwise_mean(%a: tensor<5x4xf32>, %b: tensor<3x4xf32>) -> tensor<5x3xf32> {
  %r = kf.kernel "pointwise_sub_mul_sum_div_sqrt_0" kind pointwise -> tensor<5x3xf32> {
    %zero = arith.constant 0.0 : f32
    %four = arith.constant 4.0 : f32
    %e = tensor.empty() : tensor<5x3xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<5x3xf32>) -> tensor<5x3xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<5x4xf32>, tensor<3x4xf32>) outs(%acc : tensor<5x3xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %d = arith.subf %x, %y : f32
      %sq = arith.mulf %d, %d : f32
      %v = arith.addf %o, %sq : f32
      linalg.yield %v : f32
    } -> tensor<5x3xf32>
    %e2 = tensor.empty() : tensor<5x3xf32>
    %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<5x3xf32>) outs(%e2 : tensor<5x3xf32>) {
    ^bb0(%x: f32, %o: f32):
      %q = arith.divf %x, %four : f32
      %v = math.sqrt %q : f32
      linalg.yield %v : f32
    } -> tensor<5x3xf32>
    kf.yield %m : tensor<5x3xf32>
  }
  return %r : tensor<5x3xf32>
}

// A max over a middle dim of 3 (loops i, k, j; the result indexed by i, j)
// from -inf, and both the reduction and a relu of it returned.
// MAPPING-LABEL: func.func @middle_max
// MAPPING: kind pointwise mapping flat
func.func @middle_max(%x: tensor<4x3x5xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>) {
  %r:2 = kf.kernel "pointwise_max_relu_0" kind pointwise -> tensor<4x5xf32>, tensor<4x5xf32> {
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x5xf32>
    %acc = linalg.fill ins(%ninf : f32) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
    %m = linalg.generic {indexing_maps = [affine_map<(i, k, j) -> (i, k, j)>, affine_map<(i, k, j) -> (i, j)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : tensor<4x3x5xf32>) outs(%acc : tensor<4x5xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.maximumf %a, %o : f32
      linalg.yield %v : f32
    } -> tensor<4x5xf32>
    %e2 = tensor.empty() : tensor<4x5xf32>
    %relu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x5xf32>) outs(%e2 : tensor<4x5xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.maximumf %a, %zero : f32
      linalg.yield %v : f32
    } -> tensor<4x5xf32>
    kf.yield %m, %relu : tensor<4x5xf32>, tensor<4x5xf32>
  }
  return %r#0, %r#1 : tensor<4x5xf32>, tensor<4x5xf32>
}

// Two reduced dims, 2 x 4 = 8 elements (the most unrolled), exp(x) summed
// in loop order (j, then k fastest): terms that round, so that a different
// order or a plain sum shows in the last bits (a plain sum differs from
// the CPU's compensated one in some of these 300 rows).
// MAPPING-LABEL: func.func @two_dims_of_eight
// MAPPING: kind pointwise mapping flat
func.func @two_dims_of_eight(%x: tensor<300x2x4xf32>) -> tensor<300xf32> {
  %r = kf.kernel "pointwise_exp_sum_0" kind pointwise -> tensor<300xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<300xf32>) -> tensor<300xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x : tensor<300x2x4xf32>) outs(%acc : tensor<300xf32>) {
    ^bb0(%a: f32, %o: f32):
      %t = math.exp %a : f32
      %v = arith.addf %t, %o : f32
      linalg.yield %v : f32
    } -> tensor<300xf32>
    kf.yield %s : tensor<300xf32>
  }
  return %r : tensor<300xf32>
}

// A full reduction of 8 elements into a 0-d result (one thread), then
// doubled.
// MAPPING-LABEL: func.func @full_of_eight
// MAPPING: kind pointwise mapping flat
func.func @full_of_eight(%x: tensor<8xf64>) -> tensor<f64> {
  %r = kf.kernel "pointwise_sum_add_0" kind pointwise -> tensor<f64> {
    %zero = arith.constant 0.0 : f64
    %e = tensor.empty() : tensor<f64>
    %acc = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
    %s = linalg.generic {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]} ins(%x : tensor<8xf64>) outs(%acc : tensor<f64>) {
    ^bb0(%a: f64, %o: f64):
      %v = arith.addf %o, %a : f64
      linalg.yield %v : f64
    } -> tensor<f64>
    %e2 = tensor.empty() : tensor<f64>
    %d = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%s : tensor<f64>) outs(%e2 : tensor<f64>) {
    ^bb0(%a: f64, %o: f64):
      %v = arith.addf %a, %a : f64
      linalg.yield %v : f64
    } -> tensor<f64>
    kf.yield %d : tensor<f64>
  }
  return %r : tensor<f64>
}

// An integer sum over a last dim of 3, the rows dynamic (300: more than
// one block of threads at block size 64).
// MAPPING-LABEL: func.func @int_rows
// MAPPING: kind pointwise mapping flat
func.func @int_rows(%x: tensor<?x3xi32>) -> tensor<?xi32> {
  %r = kf.kernel "pointwise_sum_0" kind pointwise -> tensor<?xi32> {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0 : i32
    %n = tensor.dim %x, %c0 : tensor<?x3xi32>
    %e = tensor.empty(%n) : tensor<?xi32>
    %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<?xi32>) -> tensor<?xi32>
    %s = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x3xi32>) outs(%acc : tensor<?xi32>) {
    ^bb0(%a: i32, %o: i32):
      %v = arith.addi %o, %a : i32
      linalg.yield %v : i32
    } -> tensor<?xi32>
    kf.yield %s : tensor<?xi32>
  }
  return %r : tensor<?xi32>
}

//--- refused.mlir

// 3 x 4 = 12 elements folded into each result: more than the flat mapping
// unrolls (a row or two-stage reduction's business).
func.func @twelve(%x: tensor<6x3x4xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{kernel 'pointwise_sum_0' (pointwise, 2 linalg ops) cannot be mapped to the GPU yet: a reduction over 12 elements (the flat mapping unrolls at most 8)}}
  %r = kf.kernel "pointwise_sum_0" kind pointwise -> tensor<6xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<6xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x : tensor<6x3x4xf32>) outs(%acc : tensor<6xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %a, %o : f32
      linalg.yield %v : f32
    } -> tensor<6xf32>
    kf.yield %s : tensor<6xf32>
  }
  return %r : tensor<6xf32>
}

// -----

// A reduced size known only at run time cannot be unrolled.
func.func @dynamic_reduced(%x: tensor<6x?xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{kernel 'pointwise_sum_0' (pointwise, 2 linalg ops) cannot be mapped to the GPU yet: a reduction over a dynamic size is not unrolled}}
  %r = kf.kernel "pointwise_sum_0" kind pointwise -> tensor<6xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<6xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x?xf32>) outs(%acc : tensor<6xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %a, %o : f32
      linalg.yield %v : f32
    } -> tensor<6xf32>
    kf.yield %s : tensor<6xf32>
  }
  return %r : tensor<6xf32>
}

// -----

// The result indexed by its parallel loops out of order ((i, j) written at
// [j, i]): the flat index, the result's, would not give the loop indices.
func.func @transposed_result(%x: tensor<4x5x2xf32>) -> tensor<5x4xf32> {
  // expected-error @+1 {{kernel 'pointwise_sum_0' (pointwise, 2 linalg ops) cannot be mapped to the GPU yet: a reduction's result is not indexed by its parallel loops in order}}
  %r = kf.kernel "pointwise_sum_0" kind pointwise -> tensor<5x4xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<5x4xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<5x4xf32>) -> tensor<5x4xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (j, i)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x5x2xf32>) outs(%acc : tensor<5x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %a, %o : f32
      linalg.yield %v : f32
    } -> tensor<5x4xf32>
    kf.yield %s : tensor<5x4xf32>
  }
  return %r : tensor<5x4xf32>
}

// -----

// An op after the reduction reading its result at another element: one
// thread would need another thread's sum.
func.func @other_element(%x: tensor<4x4x2xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{kernel 'pointwise_sum_neg_0' (pointwise, 3 linalg ops) cannot be mapped to the GPU yet: an op reads another's result at other elements}}
  %r = kf.kernel "pointwise_sum_neg_0" kind pointwise -> tensor<4x4xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x4xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x4x2xf32>) outs(%acc : tensor<4x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %a, %o : f32
      linalg.yield %v : f32
    } -> tensor<4x4xf32>
    %e2 = tensor.empty() : tensor<4x4xf32>
    %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x4xf32>) outs(%e2 : tensor<4x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.negf %a : f32
      linalg.yield %v : f32
    } -> tensor<4x4xf32>
    kf.yield %n : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// -----

// The accumulator comes from outside the kernel: no fill gives each thread
// its reduction's identity (the row mapping refuses it too).
func.func @outside_accumulator(%x: tensor<6x4xf32>, %init: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{kernel 'pointwise_sum_0' (pointwise, 1 linalg ops) cannot be mapped to the GPU yet: a reduction does not start from a fill in the kernel}}
  %r = kf.kernel "pointwise_sum_0" kind pointwise -> tensor<6xf32> {
    %s = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x4xf32>) outs(%init : tensor<6xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %a, %o : f32
      linalg.yield %v : f32
    } -> tensor<6xf32>
    kf.yield %s : tensor<6xf32>
  }
  return %r : tensor<6xf32>
}
