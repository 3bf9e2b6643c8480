// kernels.json (kfuse-compile --dump-dir) has a schema version, and each
// kernel's mapping and launch as the host computes it: checked against
// the schema, then against sizes computed by hand from each mapping's rule
// (kernels-json.mlir.py says how).
// RUN: rm -rf %t && kfuse-compile %s --dump-dir=%t -o /dev/null
// RUN: %python %kfuse_src/test/harness/validate_json.py \
// RUN:   %kfuse_src/docs/reference/schemas/kernels.schema.json %t/kernels.json \
// RUN:   | FileCheck %s --check-prefix=VALID
// VALID: valid: {{.*}}kernels.json
// RUN: %python %s.py %t/kernels.json | FileCheck %s
// CHECK: flat pointwise_add_mul_0: grid [10, 1, 1] block [256, 1, 1] shared 0 flops 20000
// CHECK: row reduction_max_sub_exp_sum_div_1: grid [100, 1, 1] block [32, 1, 1] shared 0 flops 12000
// CHECK: matmul matmul_2: grid [2, 1, 1] block [16, 16, 1] shared 8704 flops 23100
// CHECK: grid_reduction reduction_sum_3: grid [76, 1, 1] block [256, 1, 1] shared 132 flops 77777
// CHECK: matmul matmul_4: grid [2, 'max(ceildiv(d0, 64), 1)', 1] block [16, 16, 1] shared 8704 flops 700*d0
// CHECK: row_chain reduction_sum_sum_5: grid [300, 1, 1] block [32, 1, 1] shared 132 flops 15300
// CHECK: matmul matmul_6: grid [2, 1, 3] block [16, 16, 1] shared 8704 flops 69300
// CHECK: flat pointwise_add_7: grid [10, 1, 1] block [256, 1, 1] shared 0 flops 10000
// CHECK: flat transpose_8: grid [6, 1, 1] block [32, 8, 1] shared 4224 flops 0
// CHECK: every kernel records its grid, block and shared memory
// CHECK: all hand-computed launches match

// Pointwise, vectorized: 10000 f32, 4 a thread (128 bits), 256 threads.
func.func @scale(%x: tensor<10000xf32>) -> tensor<10000xf32> {
  %a = kf.add %x, %x : tensor<10000xf32>, tensor<10000xf32>
  %m = kf.mul %a, %x : tensor<10000xf32>, tensor<10000xf32>
  return %m : tensor<10000xf32>
}
// A row (softmax over 40 columns): a block a row, one warp (the row on
// chip, 16 elements a thread at most).
func.func @rows(%x: tensor<100x40xf32>) -> tensor<100x40xf32> {
  %y = kf.softmax %x dim -1 : tensor<100x40xf32>
  return %y : tensor<100x40xf32>
}
// Matmul 33x5 @ 5x70: 64x64 tiles.
func.func @mm(%a: tensor<33x5xf32>, %b: tensor<5x70xf32>) -> tensor<33x70xf32> {
  %c = kf.matmul %a, %b : tensor<33x5xf32>, tensor<5x70xf32>
  return %c : tensor<33x70xf32>
}
// A full reduction: blocks stride over the tensor.
func.func @total(%x: tensor<77777xf32>) -> tensor<f32> {
  %s = kf.sum %x : tensor<77777xf32>
  return %s : tensor<f32>
}
// A matmul with a dynamic M: the grid's y is a formula in d0.
func.func @mm_dyn(%a: tensor<?x5xf32>, %b: tensor<5x70xf32>) -> tensor<?x70xf32> {
  %c = kf.matmul %a, %b : tensor<?x5xf32>, tensor<5x70xf32>
  return %c : tensor<?x70xf32>
}
// x.sum(1).sum(0): a block a row, the last block sums the rows' sums.
func.func @chain(%x: tensor<300x50xf32>) -> tensor<f32> {
  %r = kf.sum %x dims [1] : tensor<300x50xf32>
  %s = kf.sum %r dims [0] : tensor<300xf32>
  return %s : tensor<f32>
}
// A batched matmul: batch as grid z.
func.func @bmm(%a: tensor<3x33x5xf32>, %b: tensor<5x70xf32>) -> tensor<3x33x70xf32> {
  %c = kf.matmul %a, %b : tensor<3x33x5xf32>, tensor<5x70xf32>
  return %c : tensor<3x33x70xf32>
}
// A bias over [1000, 10] (a broadcast: no vector access, a run of 4
// consecutive elements a thread, as the vector path's 4).
func.func @bias(%x: tensor<1000x10xf32>, %b: tensor<10xf32>) -> tensor<1000x10xf32> {
  %y = kf.add %x, %b : tensor<1000x10xf32>, tensor<10xf32>
  return %y : tensor<1000x10xf32>
}
// A transpose of [70, 50]: 32 x 32 tiles through shared memory.
func.func @transpose(%x: tensor<70x50xf32>) -> tensor<50x70xf32> {
  %t = kf.transpose %x [1, 0] : tensor<70x50xf32>
  return %t : tensor<50x70xf32>
}
