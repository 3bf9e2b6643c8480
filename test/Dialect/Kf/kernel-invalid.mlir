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

// The variants are six; "fast" is none of them.
func.func @bad_variant(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'variant' [tensor_core, simt, reference, on_chip, through_memory, wgmma]}}
  %0 = kf.kernel "k_0" kind matmul mapping matmul variant fast -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// Tiles are the tensor-core kernel's strategy: the SIMT kernel has none.
func.func @simt_tiles(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'kf.kernel' op has matmul tiles, which only a kernel of variant 'tensor_core' can have}}
  %0 = kf.kernel "k_0" kind matmul mapping matmul variant simt tiles <m = 64, n = 64, k = 32, warps_m = 2, warps_n = 2, stages = 2, group_m = 1> -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A warp's part must be whole 16 x 16 fragments: 64 rows over 8 warps is 8.
func.func @tiles_fragment(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{matmul tiles: a warp's part of the 64 x 64 tile must be a multiple of 16 x 16}}
  %0 = kf.kernel "k_0" kind matmul mapping matmul variant tensor_core tiles <m = 64, n = 64, k = 32, warps_m = 8, warps_n = 1, stages = 2, group_m = 1> -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A 128 x 128 part a warp would need 256 accumulators a thread: ptxas would spill.
func.func @tiles_accumulators(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{matmul tiles: a warp's 128 x 128 part needs more than 128 accumulators a thread}}
  %0 = kf.kernel "k_0" kind matmul mapping matmul variant tensor_core tiles <m = 128, n = 128, k = 32, warps_m = 1, warps_n = 1, stages = 2, group_m = 1> -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// k must be a multiple of mma.sync's 16.
func.func @tiles_k(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{matmul tiles: k must be a multiple of 16 up to 128, got 24}}
  %0 = kf.kernel "k_0" kind matmul mapping matmul variant tensor_core tiles <m = 64, n = 64, k = 24, warps_m = 2, warps_n = 2, stages = 2, group_m = 1> -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// The 16-byte chunks of a 32 x 16 tile (64 of them) do not split over 256 threads.
func.func @tiles_chunks(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{matmul tiles: the 128 x 16 and 32 x 16 operand tiles do not split evenly into 16-byte chunks over 256 threads}}
  %0 = kf.kernel "k_0" kind matmul mapping matmul variant tensor_core tiles <m = 128, n = 32, k = 16, warps_m = 8, warps_n = 1, stages = 2, group_m = 1> -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// One stage is no pipeline: the copies of the next step need a stage of their own.
func.func @tiles_stages(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{matmul tiles: stages must be 2 to 8, got 1}}
  %0 = kf.kernel "k_0" kind matmul mapping matmul variant tensor_core tiles <m = 64, n = 64, k = 32, warps_m = 2, warps_n = 2, stages = 1, group_m = 1> -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A group of no rows of tiles.
func.func @tiles_group(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{matmul tiles: group_m must be 1 to 64, got 0}}
  %0 = kf.kernel "k_0" kind matmul mapping matmul variant tensor_core tiles <m = 64, n = 64, k = 32, warps_m = 2, warps_n = 2, stages = 2, group_m = 0> -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
