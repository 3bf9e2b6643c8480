// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-map-kernels-to-host

// The host pass shares the GPU pass's checks (launch/KernelsToLaunches.h)
// and names itself in them.

// A kernel whose mapping was never decided (kf-assign-kernel-mappings did
// not run): refused, not guessed.
func.func @no_mapping(%x: memref<4xf32>, %y: memref<4xf32>) {
  // expected-error @+1 {{kf-map-kernels-to-host: kernel 'pointwise_neg_0' has no mapping (kf-assign-kernel-mappings decides it)}}
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

// A kernel that still returns its buffer (not hoisted): a launch cannot
// allocate.
func.func @not_hoisted(%x: memref<4xf32>) -> memref<4xf32> {
  // expected-error @+1 {{kf-map-kernels-to-host: kernel 'pointwise_neg_0' is not bufferized (one-shot-bufferize, then kf-hoist-kernel-buffers)}}
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

// An op that is not a linalg op on buffers: no launch runs it.
func.func @copy_in_kernel(%x: memref<4xf32>, %y: memref<4xf32>) {
  kf.kernel "pointwise_copy_0" kind pointwise mapping flat {
    // expected-error @+1 {{kf-map-kernels-to-host: kernel 'pointwise_copy_0' holds a memref.copy, which its launch cannot run}}
    memref.copy %x, %y : memref<4xf32> to memref<4xf32>
  }
  return
}

// -----

// A flat kernel holding a named structured op that is neither a generic
// nor a fill: the flat mappings run only those.
func.func @transpose_in_flat(%x: memref<4x8xf32>, %y: memref<8x4xf32>) {
  kf.kernel "transpose_0" kind transpose mapping flat {
    // expected-error @+1 {{kf-map-kernels-to-host: kernel 'transpose_0' holds a linalg.transpose, not a pointwise generic}}
    linalg.transpose ins(%x : memref<4x8xf32>) outs(%y : memref<8x4xf32>) permutation = [1, 0]
  }
  return
}
