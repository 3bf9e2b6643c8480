// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-host | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-host --canonicalize \
// RUN:   | FileCheck %s --check-prefix=SHAPE
// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-host=vector-bits=512 \
// RUN:   | FileCheck %s --check-prefix=ZMM

// The host mapping of matmul kernels (passes/host/mappings/HostMatmul.cpp): a block
// per tile of C of at most 288x128 (smaller where that gives fewer than 4
// blocks), one thread a block; B packed into 16-wide slivers
// of 256 rows of K, A's rows into a 72-row buffer; a 6x16 register tile
// of 12 vector<8xf32> accumulators (scf.for iter_args), each step a
// broadcast element of A times two vectors of B (vector.fma); the
// epilogue on the accumulators, on vectors, before the store. Results
// checked against numpy in host-matmul.mlir.

// Dynamic M, a bias over (j) and a relu. The matmul's own result (%c) is
// scratch (allocated for the kernel, only freed after it): never stored.
// The block's sides are chosen at launch (dynamic M): at most 128 columns
// and 288 rows, multiples of 16 and 6 (the cases below check the choice).
// CHECK-LABEL: func.func @linear_relu
// CHECK: %[[COLS:.*]] = arith.minui %{{.*}}, %c128{{.*}} : index
// CHECK: %[[GX:.*]] = arith.ceildivui %c23, %[[COLS]] : index
// CHECK: %[[ROWS:.*]] = arith.minui %{{.*}}, %c288{{.*}} : index
// CHECK: %[[GY:.*]] = arith.ceildivui %dim{{.*}}, %[[ROWS]] : index
// CHECK: gpu.launch
// CHECK-SAME: threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-SAME: function(@matmul_add_relu_0)
// CHECK: %[[BP:.*]] = memref.alloca() {alignment = 64 : i64} : memref<8x257x16xf32>
// A's rows are 200 bytes apart (no two of a tile's 6 in one L1 set): read
// in place, not packed (@x_wt packs its rows of 4096 bytes). K = 50 is one panel: no tile
// buffer between panels.
// CHECK-NOT: memref.alloca
// B's rows, 8 lanes at a time (masked at N = 23):
// CHECK: vector.load %arg1[{{.*}}] : memref<50x23xf32>, vector<8xf32>
// CHECK: vector.store %{{.*}}, %[[BP]]
// CHECK: vector.maskedload %arg1
// The micro-kernel, A's elements from %arg0 itself:
// CHECK-NOT: vector.load %arg0
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: vector.load %[[BP]]
// CHECK: vector.load %[[BP]]
// CHECK: memref.load %arg0[%{{.*}}, %{{.*}}] : memref<?x50xf32>
// CHECK: vector.broadcast %{{.*}} : f32 to vector<8xf32>
// CHECK-COUNT-12: vector.fma
// CHECK: scf.yield
// The epilogue on the accumulators, a row of the tile (two registers) at a
// time: bias (a vector of %arg2), relu, store.
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xf32>, vector<8xf32>
// CHECK: vector.load %arg2[%{{.*}}] : memref<23xf32>, vector<16xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: vector.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}] : memref<?x23xf32>, vector<16xf32>
// At the edge of N, the same masked.
// CHECK: vector.maskedstore %arg3
// CHECK: gpu.terminator
// CHECK-NOT: memref.store %{{.*}}, %alloc
// CHECK-NOT: vector.store %{{.*}}, %alloc
// CHECK-NOT: kf.kernel
// With AVX-512's registers (vector-bits=512, what kfuse-compile sets on
// such a CPU) the register tile is 6 x 32: 12 vector<16xf32> (zmm)
// accumulators, slivers of B 32 wide, each vector of a row finished in
// turn by the epilogue.
// ZMM-LABEL: func.func @linear_relu
// ZMM: memref.alloca() {alignment = 64 : i64} : memref<4x257x32xf32>
// ZMM: scf.for {{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// ZMM-COUNT-12: vector.fma {{.*}} : vector<16xf32>
// ZMM: arith.maximumf %{{.*}}, %{{.*}} : vector<16xf32>
// ZMM: vector.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}] : memref<?x23xf32>, vector<16xf32>
func.func @linear_relu(%a: memref<?x50xf32>, %b: memref<50x23xf32>, %bias: memref<23xf32>, %y: memref<?x23xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = memref.dim %a, %c0 : memref<?x50xf32>
  %c = memref.alloc(%m) : memref<?x23xf32>
  kf.kernel "matmul_add_relu_0" kind matmul mapping matmul {
    linalg.fill ins(%zero : f32) outs(%c : memref<?x23xf32>)
    linalg.matmul ins(%a, %b : memref<?x50xf32>, memref<50x23xf32>) outs(%c : memref<?x23xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<?x23xf32>, memref<23xf32>) outs(%y : memref<?x23xf32>) {
    ^bb0(%v: f32, %bb: f32, %o: f32):
      %s = arith.addf %v, %bb : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
    }
  }
  memref.dealloc %c : memref<?x23xf32>
  return
}

// -----

// x @ w.t() over K = 1024 (four panels: a tile buffer keeps the
// accumulators between them), a bias over (i) broadcast to the lanes. The
// matmul's result is an argument: stored as well.
// CHECK-LABEL: func.func @x_wt
// CHECK: gpu.launch
// CHECK: %[[BP:.*]] = memref.alloca() {alignment = 64 : i64} : memref<8x257x16xf32>
// A's rows, 4096 bytes apart, all 6 of a tile in one L1 set: packed.
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<72x272xf32>
// CHECK: %[[CT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<288x128xf32>
// w is [n, k]: packed through registers, 8 rows of w of 8 elements of k
// transposed into 8 rows of a sliver; the last K % 8 (1024 % 256 = 0,
// none here, but K is dynamic to the loop) element by element.
// CHECK: %[[W0:.*]] = vector.load %arg1[%{{.*}}, %{{.*}}] : memref<40x1024xf32>, vector<8xf32>
// CHECK: vector.insert %[[W0]], %{{.*}} [0] : vector<8xf32> into vector<8x8xf32>
// CHECK-COUNT-7: vector.load %arg1
// CHECK: %[[T:.*]] = vector.transpose %{{.*}}, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK: %[[R0:.*]] = vector.extract %[[T]][0] : vector<8xf32> from vector<8x8xf32>
// CHECK: vector.store %[[R0]], %[[BP]]
// CHECK: %[[W:.*]] = memref.load %arg1[%{{.*}}, %{{.*}}] : memref<40x1024xf32>
// CHECK: memref.store %[[W]], %[[BP]]
// CHECK: vector.load %[[CT]]
// CHECK-COUNT-12: vector.fma
// CHECK: vector.store %{{.*}}, %[[CT]]
// CHECK: vector.store %{{.*}}, %arg3[{{.*}}] : memref<30x40xf32>, vector<16xf32>
// CHECK: %[[I:.*]] = memref.load %arg2[%{{.*}}] : memref<30xf32>
// CHECK: vector.broadcast %[[I]] : f32 to vector<16xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: vector.store %{{.*}}, %arg4
func.func @x_wt(%x: memref<30x1024xf32>, %w: memref<40x1024xf32>, %bias: memref<30xf32>, %c: memref<30x40xf32>, %y: memref<30x40xf32>) {
  %zero = arith.constant 0.0 : f32
  kf.kernel "matmul_add_0" kind matmul mapping matmul {
    linalg.fill ins(%zero : f32) outs(%c : memref<30x40xf32>)
    linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : memref<30x1024xf32>, memref<40x1024xf32>) outs(%c : memref<30x40xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<30x40xf32>, memref<30xf32>) outs(%y : memref<30x40xf32>) {
    ^bb0(%v: f32, %bb: f32, %o: f32):
      %s = arith.addf %v, %bb : f32
      linalg.yield %s : f32
    }
  }
  return
}

// -----

// Where A's rows may be read in place (rowsReadInPlace): rows 2400 bytes
// apart (K = 600) put no two of a tile's 6 rows in one L1 set, rows 2048
// apart (K = 512) three to a set (0, 2, 4 and 1, 3, 5): both read in
// place, with no A buffer; 4096 apart (K = 1024, @x_wt) put all six in
// one set and are packed.
// CHECK-LABEL: func.func @rows_2400_apart
// CHECK-NOT: memref<72x272xf32>
// CHECK: memref.load %arg0[%{{.*}}, %{{.*}}] : memref<30x600xf32>
// CHECK: vector.broadcast
// CHECK-COUNT-12: vector.fma
// CHECK-LABEL: func.func @rows_2048_apart
// CHECK-NOT: memref<72x272xf32>
// CHECK: memref.load %arg0[%{{.*}}, %{{.*}}] : memref<30x512xf32>
// CHECK: vector.broadcast
// CHECK-COUNT-12: vector.fma
func.func @rows_2400_apart(%x: memref<30x600xf32>, %w: memref<600x40xf32>, %c: memref<30x40xf32>) {
  %zero = arith.constant 0.0 : f32
  kf.kernel "matmul_0" kind matmul mapping matmul {
    linalg.fill ins(%zero : f32) outs(%c : memref<30x40xf32>)
    linalg.matmul ins(%x, %w : memref<30x600xf32>, memref<600x40xf32>) outs(%c : memref<30x40xf32>)
  }
  return
}
func.func @rows_2048_apart(%x: memref<30x512xf32>, %w: memref<512x40xf32>, %c: memref<30x40xf32>) {
  %zero = arith.constant 0.0 : f32
  kf.kernel "matmul_0" kind matmul mapping matmul {
    linalg.fill ins(%zero : f32) outs(%c : memref<30x40xf32>)
    linalg.matmul ins(%x, %w : memref<30x512xf32>, memref<512x40xf32>) outs(%c : memref<30x40xf32>)
  }
  return
}

// -----

// An epilogue operand read at (j, i) is no row vector: the tile is stored,
// then the epilogue runs element by element over it (scalar addf).
// CHECK-LABEL: func.func @transposed_residual
// CHECK: gpu.launch
// CHECK-COUNT-12: vector.fma
// CHECK: vector.store %{{.*}}, %alloc[{{.*}}] : memref<21x21xf32>, vector<8xf32>
// CHECK: scf.for
// CHECK: %[[V:.*]] = memref.load %alloc[%{{.*}}, %{{.*}}] : memref<21x21xf32>
// CHECK: %[[R:.*]] = memref.load %arg2[%{{.*}}, %{{.*}}] : memref<21x21xf32>
// CHECK: %[[S:.*]] = arith.addf %[[V]], %[[R]] : f32
// CHECK: memref.store %[[S]], %arg3
// CHECK-NOT: arith.addf %{{.*}} : vector<8xf32>
// CHECK: gpu.terminator
func.func @transposed_residual(%a: memref<21x10xf32>, %b: memref<10x21xf32>, %r: memref<21x21xf32>, %y: memref<21x21xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<21x21xf32>
  kf.kernel "matmul_add_0" kind matmul mapping matmul {
    linalg.fill ins(%zero : f32) outs(%c : memref<21x21xf32>)
    linalg.matmul ins(%a, %b : memref<21x10xf32>, memref<10x21xf32>) outs(%c : memref<21x21xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %r : memref<21x21xf32>, memref<21x21xf32>) outs(%y : memref<21x21xf32>) {
    ^bb0(%v: f32, %t: f32, %o: f32):
      %s = arith.addf %v, %t : f32
      linalg.yield %s : f32
    }
  }
  memref.dealloc %c : memref<21x21xf32>
  return
}

// -----

// f16 operands, an f32 result: B widened to f32 as it is packed, A's
// short rows (40 bytes) as they are read in place, then the same f32
// micro-kernel.
// CHECK-LABEL: func.func @half
// CHECK: gpu.launch
// CHECK: %[[B:.*]] = vector.load %arg1[%{{.*}}, %{{.*}}] : memref<20x9xf16>, vector<8xf16>
// CHECK: arith.extf %[[B]] : vector<8xf16> to vector<8xf32>
// CHECK: scf.for {{.*}} -> (vector<8xf32>
// CHECK: %[[A:.*]] = memref.load %arg0[%{{.*}}, %{{.*}}] : memref<17x20xf16>
// CHECK: arith.extf %[[A]] : f16 to f32
// CHECK-COUNT-12: vector.fma %{{.*}} : vector<8xf32>
func.func @half(%a: memref<17x20xf16>, %b: memref<20x9xf16>, %c: memref<17x9xf32>) {
  %zero = arith.constant 0.0 : f32
  kf.kernel "matmul_0" kind matmul mapping matmul {
    linalg.fill ins(%zero : f32) outs(%c : memref<17x9xf32>)
    linalg.matmul ins(%a, %b : memref<17x20xf16>, memref<20x9xf16>) outs(%c : memref<17x9xf32>)
  }
  return
}

// -----

// A batched matmul (the generic over (batch, m, n, k) kf-to-linalg writes
// for kf.matmul of rank 3): grid z runs over the 6 batch indices; each
// block reads A and B through rank-reduced subviews at its index (B read
// [n, k], transposed in place) and runs the same register tiles; the
// epilogue (scale, bias over (j)) stores at (batch, row, col). Results
// checked against numpy in host-matmul.mlir (@scores).
// CHECK-LABEL: func.func @batched_scores
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %[[BZ:.*]]) in (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %c6{{.*}})
// CHECK: %[[B:.*]] = arith.remui %[[BZ]], %{{.*}} : index
// CHECK: memref.subview %arg0[%[[B]], 0, 0] [1, %{{.*}}, 40] [1, 1, 1] : memref<6x?x40xf32> to memref<?x40xf32, strided<[40, 1], offset: ?>>
// CHECK: memref.subview %arg1[%[[B]], 0, 0] [1, 21, 40] [1, 1, 1] : memref<6x21x40xf32> to memref<21x40xf32, strided<[40, 1], offset: ?>>
// CHECK-COUNT-12: vector.fma
// CHECK: vector.load %arg2[%{{.*}}] : memref<21xf32>, vector<16xf32>
// CHECK: vector.store %{{.*}}, %arg3[%[[B]], %{{.*}}, %{{.*}}] : memref<6x?x21xf32>, vector<16xf32>
// CHECK: vector.maskedstore %arg3[%[[B]],
func.func @batched_scores(%q: memref<6x?x40xf32>, %k: memref<6x21x40xf32>, %bias: memref<21xf32>, %y: memref<6x?x21xf32>) {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %c1 = arith.constant 1 : index
  %m = memref.dim %q, %c1 : memref<6x?x40xf32>
  %s = memref.alloc(%m) : memref<6x?x21xf32>
  kf.kernel "matmul_mul_add_0" kind matmul mapping matmul {
    linalg.fill ins(%zero : f32) outs(%s : memref<6x?x21xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : memref<6x?x40xf32>, memref<6x21x40xf32>) outs(%s : memref<6x?x21xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %p = arith.mulf %a, %b : f32
      %r = arith.addf %o, %p : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %bias : memref<6x?x21xf32>, memref<21xf32>) outs(%y : memref<6x?x21xf32>) {
    ^bb0(%v: f32, %bb: f32, %o: f32):
      %t = arith.mulf %v, %scale : f32
      %u = arith.addf %t, %bb : f32
      linalg.yield %u : f32
    }
  }
  memref.dealloc %s : memref<6x?x21xf32>
  return
}

// -----

// The block shape for static sizes (canonicalized to constants): at most
// 288 x 128, narrowed and then shortened until the launch has 4 blocks.
// 256 x 256 (K = 64): 2 default blocks across -> 4 of 64 columns, each all
// 256 rows (a multiple of 6: 258). 256 x 64: 1 default block -> 4 of 16
// columns. 1024 x 1024: 8 x 4 default blocks, already enough (rows 258,
// the 1024 spread evenly). 20 x 20: 2 of 16 columns (no narrower), one
// down (no shorter than 24 rows).
// SHAPE-LABEL: func.func @block_shapes
// SHAPE: gpu.launch blocks({{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// SHAPE: arith.muli %{{.*}}, %c64
// SHAPE: gpu.launch blocks({{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// SHAPE: arith.muli %{{.*}}, %c16
// SHAPE: gpu.launch blocks({{.*}}) in (%{{.*}} = %c8, %{{.*}} = %c4, %{{.*}} = %c1{{.*}})
// SHAPE: arith.muli %{{.*}}, %c258
// SHAPE: gpu.launch blocks({{.*}}) in (%{{.*}} = %c2, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
func.func @block_shapes(%a: memref<256x64xf32>, %b: memref<64x256xf32>, %c: memref<256x256xf32>,
                        %d: memref<256x256xf32>, %e: memref<256x64xf32>, %f: memref<256x64xf32>,
                        %g: memref<1024x1024xf32>, %h: memref<1024x1024xf32>,
                        %i: memref<20x20xf32>, %j: memref<20x20xf32>) {
  %zero = arith.constant 0.0 : f32
  kf.kernel "matmul_0" kind matmul mapping matmul {
    linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
    linalg.matmul ins(%a, %b : memref<256x64xf32>, memref<64x256xf32>) outs(%c : memref<256x256xf32>)
  }
  kf.kernel "matmul_1" kind matmul mapping matmul {
    linalg.fill ins(%zero : f32) outs(%f : memref<256x64xf32>)
    linalg.matmul ins(%d, %e : memref<256x256xf32>, memref<256x64xf32>) outs(%f : memref<256x64xf32>)
  }
  kf.kernel "matmul_2" kind matmul mapping matmul {
    linalg.fill ins(%zero : f32) outs(%h : memref<1024x1024xf32>)
    linalg.matmul ins(%g, %g : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%h : memref<1024x1024xf32>)
  }
  kf.kernel "matmul_3" kind matmul mapping matmul {
    linalg.fill ins(%zero : f32) outs(%j : memref<20x20xf32>)
    linalg.matmul ins(%i, %i : memref<20x20xf32>, memref<20x20xf32>) outs(%j : memref<20x20xf32>)
  }
  return
}
