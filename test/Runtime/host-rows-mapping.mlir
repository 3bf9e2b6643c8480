// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-host | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-host --canonicalize | FileCheck %s --check-prefix=GRID
// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-host=vector-bits=512 \
// RUN:   | FileCheck %s --check-prefix=ZMM

// With AVX-512 (vector-bits=512) a row kernel's vectors are 16 lanes
// (rows::rowLanes) where no value is wider than 32 bits and the rows are
// not short and ragged: @softmax (rows of 1000), @row_pairs (100) and
// @row_quads_64 below. 8 lanes stay for @row_quads (40 columns: a masked
// half-empty last vector of 16), @f32_row_f64_sum (f64 moments),
// @short_rows_* (17) and the full reduction @full_sum.

// The host mapping of a row kernel (passes/host/mappings/HostRows.cpp): blocks of
// rows, one thread a block; each row's passes in vector<8xf32> lanes. The
// softmax below: max (four vector accumulators, a masked tail), exp and
// sum in one loop (math.exp on vectors, which kf-host-math then writes
// as a polynomial, as it does every host exp: no expf call; the sum
// is compensated, a (sum, lost) pair of vectors), exp stored to one
// scratch row of the block (the program's buffer is only read in this
// kernel), then the divide. The lanes of each reduction are combined as
// halves (8 -> 4 -> 2 -> 1 lanes, HostRowLoops.cpp), not one by one.
// CHECK-LABEL: func.func @softmax
// ZMM-LABEL: func.func @softmax
// ZMM: vector.load %arg0{{.*}} vector<16xf32>
// ZMM: vector.extract_strided_slice {{.*}} {offsets = [8], sizes = [8], strides = [1]} : vector<16xf32> to vector<8xf32>
// ZMM-NOT: vector.load %arg0{{.*}} vector<8xf32>
// ZMM: gpu.terminator
// CHECK: %[[SCRATCH:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf32>
// CHECK: gpu.launch
// CHECK-SAME: threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK: scf.for %[[ROW:.*]] =
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: vector.load %{{.*}}[%[[ROW]], %{{.*}}] : memref<4x1000xf32>, vector<8xf32>
// CHECK: arith.maximumf {{.*}} : vector<8xf32>
// CHECK: vector.create_mask
// CHECK: vector.maskedload
// CHECK: %[[HI4:.*]] = vector.extract_strided_slice %[[LANES:.*]] {offsets = [4], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
// CHECK: %[[MAX4:.*]] = arith.maximumf %{{.*}}, %[[HI4]] : vector<4xf32>
// CHECK: vector.extract_strided_slice %[[MAX4]] {offsets = [2], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
// CHECK: %[[MAX1:.*]] = arith.maximumf %{{.*}}, %{{.*}} : vector<1xf32>
// CHECK: %[[MAX:.*]] = vector.extract %[[MAX1]][0] : f32 from vector<1xf32>
// CHECK: memref.store %[[MAX]], %{{.*}}[%[[ROW]]] : memref<4xf32>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>)
// CHECK: math.exp {{.*}} : vector<8xf32>
// CHECK: vector.store %{{.*}}, %[[SCRATCH]]
// CHECK: arith.divf {{.*}} : vector<8xf32>
// CHECK: gpu.terminator
// CHECK: memref.dealloc %[[SCRATCH]]
func.func @softmax(%x: memref<4x1000xf32>, %y: memref<4x1000xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = memref.alloc() : memref<4xf32>
  %s = memref.alloc() : memref<4xf32>
  %e = memref.alloc() : memref<4x1000xf32>
  kf.kernel "reduction_max_sub_exp_sum_div_0" kind reduction mapping row {
    linalg.fill ins(%ninf : f32) outs(%m : memref<4xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x1000xf32>) outs(%m : memref<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.maximumf %o, %a : f32
      linalg.yield %v : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : memref<4x1000xf32>, memref<4xf32>) outs(%e : memref<4x1000xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %d = arith.subf %a, %b : f32
      %v = math.exp %d : f32
      linalg.yield %v : f32
    }
    linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : memref<4x1000xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %o, %a : f32
      linalg.yield %v : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %s : memref<4x1000xf32>, memref<4xf32>) outs(%y : memref<4x1000xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %v = arith.divf %a, %b : f32
      linalg.yield %v : f32
    }
  }
  memref.dealloc %m : memref<4xf32>
  memref.dealloc %s : memref<4xf32>
  memref.dealloc %e : memref<4x1000xf32>
  return
}

// -----

// An elementwise result only the next reduction of the same pass reads
// (log_softmax's exp before its sum) stays in registers: never stored.
// CHECK-LABEL: func.func @exp_sum
// CHECK: gpu.launch
// CHECK: math.exp {{.*}} : vector<8xf32>
// CHECK-NOT: vector.store
// CHECK-NOT: vector.maskedstore
// CHECK: gpu.terminator
func.func @exp_sum(%x: memref<4x1000xf32>, %s: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = memref.alloc() : memref<4x1000xf32>
  kf.kernel "reduction_exp_sum_0" kind reduction mapping row {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x1000xf32>) outs(%e : memref<4x1000xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = math.exp %a : f32
      linalg.yield %v : f32
    }
    linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : memref<4x1000xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %o, %a : f32
      linalg.yield %v : f32
    }
  }
  memref.dealloc %e : memref<4x1000xf32>
  return
}

// -----

// Short static rows (at most 256 columns) run two at a time, and rows of
// at most 64 four at a time: each step of the column loops runs the
// group's vectors (two accumulators a row where one row alone keeps
// four), then a block's last rows one by one, their sums in the same
// order (two accumulators).
// CHECK-LABEL: func.func @row_quads
// ZMM-LABEL: func.func @row_quads
// ZMM: iter_args({{.*}}) -> (vector<8xf32>,
// ZMM-NOT: vector<16xf32>
// ZMM: gpu.terminator
// CHECK: gpu.launch
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4{{.*}} {
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK-COUNT-4: vector.load %arg0
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1{{.*}} {
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>)
// CHECK: gpu.terminator
func.func @row_quads(%x: memref<?x40xf32>, %s: memref<?xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  kf.kernel "reduction_max_0" kind reduction mapping row {
    linalg.fill ins(%ninf : f32) outs(%s : memref<?xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<?x40xf32>) outs(%s : memref<?xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.maximumf %o, %a : f32
      linalg.yield %v : f32
    }
  }
  return
}

// -----

// Rows of 100 (over 64, at most 256): two at a time.
// CHECK-LABEL: func.func @row_pairs
// ZMM-LABEL: func.func @row_pairs
// ZMM: iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// ZMM-NOT: vector.load %arg0{{.*}} vector<8xf32>
// ZMM: gpu.terminator
// CHECK: gpu.launch
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c2{{.*}} {
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK-COUNT-2: vector.load %arg0
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1{{.*}} {
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>)
// CHECK: gpu.terminator
func.func @row_pairs(%x: memref<?x100xf32>, %s: memref<?xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  kf.kernel "reduction_max_0" kind reduction mapping row {
    linalg.fill ins(%ninf : f32) outs(%s : memref<?xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<?x100xf32>) outs(%s : memref<?xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.maximumf %o, %a : f32
      linalg.yield %v : f32
    }
  }
  return
}

// -----

// Rows of 64, four at a time: 16 lanes with AVX-512 (4 vectors a row),
// 8 without.
// CHECK-LABEL: func.func @row_quads_64
// CHECK: iter_args({{.*}}) -> (vector<8xf32>,
// ZMM-LABEL: func.func @row_quads_64
// ZMM: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4{{.*}} {
// ZMM: iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// ZMM-COUNT-4: vector.load %arg0{{.*}} vector<16xf32>
// ZMM-NOT: vector.load %arg0{{.*}} vector<8xf32>
// ZMM: gpu.terminator
func.func @row_quads_64(%x: memref<?x64xf32>, %s: memref<?xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  kf.kernel "reduction_max_0" kind reduction mapping row {
    linalg.fill ins(%ninf : f32) outs(%s : memref<?xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<?x64xf32>) outs(%s : memref<?xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.maximumf %o, %a : f32
      linalg.yield %v : f32
    }
  }
  return
}

// -----

// The f64 moments of an f32 row (--f64-moments: layer_norm's mean) sum
// plainly (plain f64 is below f32's rounding for rows under 2^29
// elements): two accumulators for each of a pair of rows; an f64
// program's sum (@f64_sum) stays compensated, a (sum, lost) pair a row.
// CHECK-LABEL: func.func @f32_row_f64_sum
// ZMM-LABEL: func.func @f32_row_f64_sum
// ZMM: iter_args({{.*}}) -> (vector<8xf64>,
// ZMM-NOT: vector<16x
// ZMM: gpu.terminator
// CHECK: gpu.launch
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf64>, vector<8xf64>, vector<8xf64>, vector<8xf64>)
// CHECK: arith.extf %{{.*}} : vector<8xf32> to vector<8xf64>
// CHECK-NOT: arith.cmpf
// CHECK: scf.yield
// CHECK: gpu.terminator
func.func @f32_row_f64_sum(%x: memref<4x100xf32>, %s: memref<4xf64>) {
  %zero = arith.constant 0.0 : f64
  kf.kernel "reduction_cast_sum_0" kind reduction mapping row {
    linalg.fill ins(%zero : f64) outs(%s : memref<4xf64>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x100xf32>) outs(%s : memref<4xf64>) {
    ^bb0(%a: f32, %o: f64):
      %w = arith.extf %a : f32 to f64
      %v = arith.addf %o, %w : f64
      linalg.yield %v : f64
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @f64_sum
// CHECK: gpu.launch
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf64>, vector<8xf64>, vector<8xf64>, vector<8xf64>)
// CHECK: arith.cmpf oeq
// CHECK: gpu.terminator
func.func @f64_sum(%x: memref<4x100xf64>, %s: memref<4xf64>) {
  %zero = arith.constant 0.0 : f64
  kf.kernel "reduction_sum_0" kind reduction mapping row {
    linalg.fill ins(%zero : f64) outs(%s : memref<4xf64>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x100xf64>) outs(%s : memref<4xf64>) {
    ^bb0(%a: f64, %o: f64):
      %v = arith.addf %o, %a : f64
      linalg.yield %v : f64
    }
  }
  return
}

// -----

// Negative case: a sum over the leading dim (its rows are columns of
// memory, a stride apart) keeps the scalar mapping, a block per row: no
// vector ops.
// CHECK-LABEL: func.func @sum_dim0
// CHECK: gpu.launch
// CHECK-NOT: vector.
// CHECK: gpu.terminator
func.func @sum_dim0(%x: memref<64x16xf32>, %s: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  kf.kernel "reduction_sum_0" kind reduction mapping row {
    linalg.fill ins(%zero : f32) outs(%s : memref<16xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<64x16xf32>) outs(%s : memref<16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %o, %a : f32
      linalg.yield %v : f32
    }
  }
  return
}

// -----

// A full reduction: blocks of contiguous chunks, a vector pass each to
// one partial; the last block (the ticket) combines the partials in block
// order with a compensated sum.
// CHECK-LABEL: func.func @full_sum
// ZMM-LABEL: func.func @full_sum
// ZMM-NOT: vector<16x
// ZMM: gpu.terminator
// CHECK: %[[P:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: gpu.launch
// CHECK: vector.load %{{.*}}[%{{.*}}] : memref<?xf32>, vector<8xf32>
// CHECK: memref.store %{{.*}}, %[[P]]
// CHECK: memref.atomic_rmw addi
// CHECK: scf.for {{.*}} -> (f32, f32)
// CHECK: memref.load %[[P]]
// CHECK: gpu.terminator
// CHECK: memref.dealloc %[[P]]
func.func @full_sum(%x: memref<?xf32>, %s: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  kf.kernel "reduction_sum_0" kind reduction mapping grid_reduction {
    linalg.fill ins(%zero : f32) outs(%s : memref<f32>)
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : memref<?xf32>) outs(%s : memref<f32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %o, %a : f32
      linalg.yield %v : f32
    }
  }
  return
}

// -----

// Blocks of short rows: a row kernel of at most 4,096 elements is one
// block (240 rows of 17: 4,080), a larger one several (1088 rows of 17,
// ViT's softmax: 8 blocks of 136 rows; as one block, 60 us on one core,
// now 35 on two). The grid folds to a constant for static shapes.
// GRID-LABEL: func.func @short_rows_one_block
// ZMM-LABEL: func.func @short_rows_one_block
// ZMM: vector<8xf32>
// ZMM-NOT: vector<16x
// ZMM: gpu.terminator
// GRID: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
func.func @short_rows_one_block(%x: memref<240x17xf32>, %y: memref<240x17xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = memref.alloc() : memref<240xf32>
  %s = memref.alloc() : memref<240xf32>
  %e = memref.alloc() : memref<240x17xf32>
  kf.kernel "reduction_max_sub_exp_sum_div_0" kind reduction mapping row {
    linalg.fill ins(%ninf : f32) outs(%m : memref<240xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<240x17xf32>) outs(%m : memref<240xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.maximumf %o, %a : f32
      linalg.yield %v : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : memref<240x17xf32>, memref<240xf32>) outs(%e : memref<240x17xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %d = arith.subf %a, %b : f32
      %v = math.exp %d : f32
      linalg.yield %v : f32
    }
    linalg.fill ins(%zero : f32) outs(%s : memref<240xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : memref<240x17xf32>) outs(%s : memref<240xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %o, %a : f32
      linalg.yield %v : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %s : memref<240x17xf32>, memref<240xf32>) outs(%y : memref<240x17xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %v = arith.divf %a, %b : f32
      linalg.yield %v : f32
    }
  }
  memref.dealloc %m : memref<240xf32>
  memref.dealloc %s : memref<240xf32>
  memref.dealloc %e : memref<240x17xf32>
  return
}

// -----

// GRID-LABEL: func.func @short_rows_blocks
// GRID: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c8{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
func.func @short_rows_blocks(%x: memref<1088x17xf32>, %y: memref<1088x17xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = memref.alloc() : memref<1088xf32>
  %s = memref.alloc() : memref<1088xf32>
  %e = memref.alloc() : memref<1088x17xf32>
  kf.kernel "reduction_max_sub_exp_sum_div_0" kind reduction mapping row {
    linalg.fill ins(%ninf : f32) outs(%m : memref<1088xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<1088x17xf32>) outs(%m : memref<1088xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.maximumf %o, %a : f32
      linalg.yield %v : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : memref<1088x17xf32>, memref<1088xf32>) outs(%e : memref<1088x17xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %d = arith.subf %a, %b : f32
      %v = math.exp %d : f32
      linalg.yield %v : f32
    }
    linalg.fill ins(%zero : f32) outs(%s : memref<1088xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : memref<1088x17xf32>) outs(%s : memref<1088xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %o, %a : f32
      linalg.yield %v : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %s : memref<1088x17xf32>, memref<1088xf32>) outs(%y : memref<1088x17xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %v = arith.divf %a, %b : f32
      linalg.yield %v : f32
    }
  }
  memref.dealloc %m : memref<1088xf32>
  memref.dealloc %s : memref<1088xf32>
  memref.dealloc %e : memref<1088x17xf32>
  return
}
