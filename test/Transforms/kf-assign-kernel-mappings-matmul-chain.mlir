// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-assign-kernel-mappings | FileCheck %s
// A matmul kernel holds several matmuls only as a chain of sums (the
// matmul-chain rule, analysis/MatmulChain.h): each product read by one sum,
// the sums ending in one, the later matmuls starting from zero.

// a @ b + c @ d, then relu: mapped as one matmul kernel.
// CHECK-LABEL: func.func @chain
// CHECK: kf.kernel "matmul_add_0" kind matmul mapping matmul
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x3xf32>, %d: tensor<3x2xf32>) -> tensor<4x2xf32> {
  %r = kf.kernel "matmul_add_0" kind matmul -> tensor<4x2xf32> {
    %zero = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<4x2xf32>
    %e1 = tensor.empty() : tensor<4x2xf32>
    %e2 = tensor.empty() : tensor<4x2xf32>
    %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %p = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%f0 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %q = linalg.matmul ins(%c, %d : tensor<4x3xf32>, tensor<3x2xf32>) outs(%f1 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %q : tensor<4x2xf32>, tensor<4x2xf32>) outs(%e2 : tensor<4x2xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %v = arith.addf %x, %y : f32
      linalg.yield %v : f32
    } -> tensor<4x2xf32>
    kf.yield %s : tensor<4x2xf32>
  }
  return %r : tensor<4x2xf32>
}

// -----

// Refused: a difference (one accumulator only adds).
func.func @difference(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x3xf32>, %d: tensor<3x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{kernel 'matmul_sub_0' (matmul, 5 linalg ops) cannot be mapped to the GPU yet: its matmuls are not a chain of sums: a matmul's value is read by something other than one sum}}
  %r = kf.kernel "matmul_sub_0" kind matmul -> tensor<4x2xf32> {
    %zero = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<4x2xf32>
    %e1 = tensor.empty() : tensor<4x2xf32>
    %e2 = tensor.empty() : tensor<4x2xf32>
    %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %p = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%f0 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %q = linalg.matmul ins(%c, %d : tensor<4x3xf32>, tensor<3x2xf32>) outs(%f1 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %q : tensor<4x2xf32>, tensor<4x2xf32>) outs(%e2 : tensor<4x2xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %v = arith.subf %x, %y : f32
      linalg.yield %v : f32
    } -> tensor<4x2xf32>
    kf.yield %s : tensor<4x2xf32>
  }
  return %r : tensor<4x2xf32>
}

// -----

// Refused: the second matmul starts from 1 (the one accumulator would add
// it to the first's products only once by chance: it starts from the
// first fill, the others must add nothing).
func.func @nonzero_fill(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x3xf32>, %d: tensor<3x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{its matmuls are not a chain of sums: a later matmul starts from a nonzero fill}}
  %r = kf.kernel "matmul_add_0" kind matmul -> tensor<4x2xf32> {
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<4x2xf32>
    %e1 = tensor.empty() : tensor<4x2xf32>
    %e2 = tensor.empty() : tensor<4x2xf32>
    %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %p = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%f0 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %f1 = linalg.fill ins(%one : f32) outs(%e1 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %q = linalg.matmul ins(%c, %d : tensor<4x3xf32>, tensor<3x2xf32>) outs(%f1 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %q : tensor<4x2xf32>, tensor<4x2xf32>) outs(%e2 : tensor<4x2xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %v = arith.addf %x, %y : f32
      linalg.yield %v : f32
    } -> tensor<4x2xf32>
    kf.yield %s : tensor<4x2xf32>
  }
  return %r : tensor<4x2xf32>
}

// -----

// Refused: the first product is also a result of the kernel (its value
// would have to be stored apart from the sum's).
func.func @product_returned(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x3xf32>, %d: tensor<3x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  // expected-error @+1 {{its matmuls are not a chain of sums: a matmul's value is read by something other than one sum}}
  %r:2 = kf.kernel "matmul_add_0" kind matmul -> tensor<4x2xf32>, tensor<4x2xf32> {
    %zero = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<4x2xf32>
    %e1 = tensor.empty() : tensor<4x2xf32>
    %e2 = tensor.empty() : tensor<4x2xf32>
    %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %p = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%f0 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %q = linalg.matmul ins(%c, %d : tensor<4x3xf32>, tensor<3x2xf32>) outs(%f1 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %q : tensor<4x2xf32>, tensor<4x2xf32>) outs(%e2 : tensor<4x2xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %v = arith.addf %x, %y : f32
      linalg.yield %v : f32
    } -> tensor<4x2xf32>
    kf.yield %s, %p : tensor<4x2xf32>, tensor<4x2xf32>
  }
  return %r#0, %r#1 : tensor<4x2xf32>, tensor<4x2xf32>
}

// -----

// Refused: one fill started both matmuls (each needs its own accumulator
// start).
func.func @shared_fill(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x3xf32>, %d: tensor<3x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{cannot be mapped to the GPU yet: a fill that does not start a matmul of its own}}
  %r = kf.kernel "matmul_add_0" kind matmul -> tensor<4x2xf32> {
    %zero = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<4x2xf32>
    %e2 = tensor.empty() : tensor<4x2xf32>
    %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %p = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%f0 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %q = linalg.matmul ins(%c, %d : tensor<4x3xf32>, tensor<3x2xf32>) outs(%f0 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %q : tensor<4x2xf32>, tensor<4x2xf32>) outs(%e2 : tensor<4x2xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %v = arith.addf %x, %y : f32
      linalg.yield %v : f32
    } -> tensor<4x2xf32>
    kf.yield %s : tensor<4x2xf32>
  }
  return %r : tensor<4x2xf32>
}
