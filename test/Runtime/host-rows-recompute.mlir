// The host's row kernels recompute cheap values that a later pass reads
// (HostRowEmitter's recomputableBuffers) instead of giving them a scratch
// row: layer_norm with f64 moments (the CPU's, issue 27) reads the f64 copy
// of x in two passes and x - mean in two; redoing an extf and a subf costs
// less than storing 8 bytes an element and loading them back, so the only
// vector store is the output's. A division along the row is not redone.
// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-host | FileCheck %s

// No scratch row (a [blocks, columns] buffer) before the launch.
// CHECK-LABEL: func.func @layer_norm_f64_moments
// CHECK-NOT: memref<?x?x
// CHECK: gpu.launch
// The mean's pass: the f64 copy, summed in registers.
// CHECK: arith.extf %{{.*}} : vector<8xf32> to vector<8xf64>
// CHECK-NOT: vector.store
// CHECK: memref.store %{{.*}} : memref<4xf64>
// The variance's pass: the copy and x - mean again, squared and summed.
// CHECK: arith.extf %{{.*}} : vector<8xf32> to vector<8xf64>
// CHECK: arith.subf %{{.*}}, %{{.*}} : vector<8xf64>
// CHECK-NEXT: arith.mulf %{{.*}}, %{{.*}} : vector<8xf64>
// CHECK-NOT: vector.store
// CHECK: memref.store %{{.*}} : memref<4xf64>
// The normalization: x - mean a third time, the only store the output's.
// CHECK: arith.extf %{{.*}} : vector<8xf32> to vector<8xf64>
// CHECK: arith.subf %{{.*}}, %{{.*}} : vector<8xf64>
// CHECK: arith.truncf %{{.*}} : vector<8xf64> to vector<8xf32>
// CHECK-NEXT: vector.store %{{.*}}, %{{.*}} : memref<4x1024xf32>, vector<8xf32>
// CHECK: gpu.terminator
func.func @layer_norm_f64_moments(%x: memref<4x1024xf32>, %y: memref<4x1024xf32>) {
  %eps = arith.constant 1.0e-05 : f64
  %n = arith.constant 1.024000e+03 : f64
  %zero = arith.constant 0.0 : f64
  %c = memref.alloc() : memref<4x1024xf64>
  %x64 = memref.alloc() : memref<4x1024xf64>
  %sq = memref.alloc() : memref<4xf64>
  %var = memref.alloc() : memref<4xf64>
  %sum = memref.alloc() : memref<4xf64>
  kf.kernel "reduction_cast_mean_sub_mul_mean_add_rsqrt_mul_0" kind reduction mapping row {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x1024xf32>) outs(%x64 : memref<4x1024xf64>) {
    ^bb0(%in: f32, %out: f64):
      %0 = arith.extf %in : f32 to f64
      linalg.yield %0 : f64
    }
    linalg.fill ins(%zero : f64) outs(%sum : memref<4xf64>)
    linalg.fill ins(%zero : f64) outs(%sq : memref<4xf64>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x64 : memref<4x1024xf64>) outs(%sum : memref<4xf64>) {
    ^bb0(%in: f64, %out: f64):
      %0 = arith.addf %out, %in : f64
      linalg.yield %0 : f64
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x64, %sum : memref<4x1024xf64>, memref<4xf64>) outs(%c : memref<4x1024xf64>) {
    ^bb0(%in: f64, %s: f64, %out: f64):
      %0 = arith.divf %s, %n : f64
      %1 = arith.subf %in, %0 : f64
      linalg.yield %1 : f64
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%c : memref<4x1024xf64>) outs(%sq : memref<4xf64>) {
    ^bb0(%in: f64, %out: f64):
      %0 = arith.mulf %in, %in : f64
      %1 = arith.addf %out, %0 : f64
      linalg.yield %1 : f64
    }
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sq : memref<4xf64>) outs(%var : memref<4xf64>) {
    ^bb0(%in: f64, %out: f64):
      %0 = arith.divf %in, %n : f64
      linalg.yield %0 : f64
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %var : memref<4x1024xf64>, memref<4xf64>) outs(%y : memref<4x1024xf32>) {
    ^bb0(%in: f64, %v: f64, %out: f32):
      %0 = arith.addf %v, %eps : f64
      %1 = math.rsqrt %0 : f64
      %2 = arith.mulf %in, %1 : f64
      %3 = arith.truncf %2 : f64 to f32
      linalg.yield %3 : f32
    }
  }
  memref.dealloc %c : memref<4x1024xf64>
  memref.dealloc %x64 : memref<4x1024xf64>
  memref.dealloc %sq : memref<4xf64>
  memref.dealloc %var : memref<4xf64>
  memref.dealloc %sum : memref<4xf64>
  return
}

// -----

// Negative: x / 3 divides every element (a division takes tens of cycles),
// so the value read by the second pass keeps its scratch row.
// CHECK-LABEL: func.func @division_kept
// CHECK: %[[SCRATCH:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf32>
// CHECK: gpu.launch
// CHECK: arith.divf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: vector.store %{{.*}}, %[[SCRATCH]]
// CHECK: gpu.terminator
func.func @division_kept(%x: memref<4x1000xf32>, %y: memref<4x1000xf32>) {
  %three = arith.constant 3.0 : f32
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<4x1000xf32>
  %s = memref.alloc() : memref<4xf32>
  kf.kernel "reduction_div_sum_sub_0" kind reduction mapping row {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x1000xf32>) outs(%t : memref<4x1000xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.divf %in, %three : f32
      linalg.yield %0 : f32
    }
    linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t : memref<4x1000xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %out, %in : f32
      linalg.yield %0 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t, %s : memref<4x1000xf32>, memref<4xf32>) outs(%y : memref<4x1000xf32>) {
    ^bb0(%in: f32, %b: f32, %out: f32):
      %0 = arith.subf %in, %b : f32
      linalg.yield %0 : f32
    }
  }
  memref.dealloc %t : memref<4x1000xf32>
  memref.dealloc %s : memref<4xf32>
  return
}
