// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-map-kernels-to-gpu

// A kernel whose mapping was never decided (kf-assign-kernel-mappings did
// not run): refused, not guessed.
func.func @no_mapping(%x: memref<4xf32>, %y: memref<4xf32>) {
  // expected-error @+1 {{kf-map-kernels-to-gpu: kernel 'pointwise_neg_0' has no mapping (kf-assign-kernel-mappings decides it)}}
  kf.kernel "pointwise_neg_0" kind pointwise {
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf32>) outs(%y : memref<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.negf %a : f32
      linalg.yield %v : f32
    }
  }
  return
}

// -----

// A kernel that still returns its buffer: its allocations were not moved
// before it (kf-hoist-kernel-buffers), and a launch cannot allocate.
func.func @not_hoisted(%x: memref<4xf32>) -> memref<4xf32> {
  // expected-error @+1 {{kf-map-kernels-to-gpu: kernel 'pointwise_neg_0' is not bufferized (one-shot-bufferize, then kf-hoist-kernel-buffers)}}
  %r = kf.kernel "pointwise_neg_0" kind pointwise mapping flat -> memref<4xf32> {
    %y = memref.alloc() : memref<4xf32>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf32>) outs(%y : memref<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.negf %a : f32
      linalg.yield %v : f32
    }
    kf.yield %y : memref<4xf32>
  }
  return %r : memref<4xf32>
}

// -----

// A kernel holding an op that is no linalg op (a copy bufferization made
// inside it) is refused: its launch would not run it.
func.func @copy_inside(%x: memref<4xf32>, %y: memref<4xf32>) {
  kf.kernel "pointwise_copy_0" kind pointwise mapping flat {
    // expected-error @+1 {{kf-map-kernels-to-gpu: kernel 'pointwise_copy_0' holds a memref.copy, which its launch cannot run}}
    memref.copy %x, %y : memref<4xf32> to memref<4xf32>
  }
  return
}

// -----

// A matmul kernel whose variant was never chosen (kf-assign-kernel-mappings
// chooses it with the mapping): refused, not guessed.
func.func @no_variant(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x4xf32>) {
  // expected-error @+1 {{kf-map-kernels-to-gpu: matmul kernel 'matmul_0' has no variant (kf-assign-kernel-mappings chooses it)}}
  kf.kernel "matmul_0" kind matmul mapping matmul {
    linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  }
  return
}

// -----

// A row kernel whose form was never chosen (on chip or through memory:
// kf-assign-kernel-mappings chooses it with the mapping): refused.
func.func @row_no_variant(%x: memref<4x8xf32>, %s: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{kf-map-kernels-to-gpu: row kernel 'reduction_sum_0' has no variant (kf-assign-kernel-mappings chooses it)}}
  kf.kernel "reduction_sum_0" kind reduction mapping row {
    linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %v = arith.addf %acc, %a : f32
      linalg.yield %v : f32
    }
  }
  return
}

// -----

// On chip was chosen, but the buffers alias where the on-chip form cannot
// follow: the last op overwrites the input the reduction read (a kernel
// hand-written on buffers; kf-assign-kernel-mappings chooses on_chip only
// where each value has a buffer of its own). Refused, not run wrong.
func.func @on_chip_aliased(%x: memref<4x8xf32>, %s: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  kf.kernel "reduction_sum_sub_0" kind reduction mapping row variant on_chip {
    linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %v = arith.addf %acc, %a : f32
      linalg.yield %v : f32
    }
    // expected-error @+1 {{kernel 'reduction_sum_sub_0' (variant on_chip): its buffers alias in a way the on-chip form does not follow}}
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<4x8xf32>, memref<4xf32>) outs(%x : memref<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %v = arith.subf %a, %b : f32
      linalg.yield %v : f32
    }
  }
  return
}
