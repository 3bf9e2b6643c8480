// RUN: kfuse-opt %s -split-input-file -verify-diagnostics

// The yielded values must be the kernel's results.
func.func @yield_mismatch(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'kf.kernel' op yields 'tensor<4xf32>', 'tensor<4xf32>' but its results are 'tensor<4xf32>'}}
  %0 = kf.kernel "k_0" kind pointwise -> tensor<4xf32> {
    kf.yield %x, %x : tensor<4xf32>, tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// The kind is one of five.
func.func @bad_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [pointwise, reduction, matmul, transpose, attention]}}
  %0 = kf.kernel "k_0" kind stencil -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// kf.yield only ends a kernel.
func.func @stray_yield(%x: tensor<4xf32>) {
  // expected-error @+1 {{'kf.yield' op expects parent op 'kf.kernel'}}
  kf.yield %x : tensor<4xf32>
}

// -----

// A kernel computes tensors (buffers, once bufferized), not scalars.
func.func @scalar_result(%x: f32) -> f32 {
  // expected-error @+1 {{'kf.kernel' op result #0 must be variadic of ranked tensor of any type values or memref of any type values, but got 'f32'}}
  %0 = kf.kernel "k_0" kind pointwise -> f32 {
    kf.yield %x : f32
  }
  return %0 : f32
}

// -----

// A matmul design is a variant of the matmul mapping only: a kernel of
// another mapping, or of none yet, cannot have one.
func.func @variant_of_flat(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'kf.kernel' op has variant 'simt', which only a kernel of mapping matmul can have}}
  %0 = kf.kernel "k_0" kind pointwise mapping flat variant simt -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A row kernel's form is no matmul design, and a matmul design no form of
// a row kernel.
func.func @on_chip_matmul(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'kf.kernel' op has variant 'on_chip', which only a kernel of mapping row or row_chain can have}}
  %0 = kf.kernel "k_0" kind matmul mapping matmul variant on_chip -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A grid reduction has one form: no variant.
func.func @through_memory_grid(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'kf.kernel' op has variant 'through_memory', which only a kernel of mapping row or row_chain can have}}
  %0 = kf.kernel "k_0" kind reduction mapping grid_reduction variant through_memory -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A matmul design on a row kernel.
func.func @simt_row(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'kf.kernel' op has variant 'simt', which only a kernel of mapping matmul can have}}
  %0 = kf.kernel "k_0" kind reduction mapping row variant simt -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// The variants are five.
func.func @bad_variant(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'variant' [tensor_core, simt, reference, on_chip, through_memory]}}
  %0 = kf.kernel "k_0" kind matmul mapping matmul variant wgmma -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
