// Reduction chains: a row kernel (a block per row) followed by a final
// reduction over all of its rows to one value and the ops over that value
// (`x.sum(1).sum(0)`, `x.max(-1).mean()`), one launch (mapping row_chain).
// Each block computes its row and writes the row's values to global
// memory; the last block to take a ticket (the scheme of
// single-launch-reduction.mlir) runs the final reduction over the rows'
// values, striding over them with its threads, then the ops over its
// result. The kernels are written by hand as kernel formation would form
// them (after kf-to-linalg), until the fusion planner forms them.
//
// The mapping, one launch, the ticket; a final reduction's own workgroup
// memory and the flag after the rows' reductions'.
// RUN: kfuse-opt %s --kf-assign-kernel-mappings | FileCheck %s --check-prefix=MAPPING
// MAPPING-LABEL: func.func @sum_sum
// MAPPING: kf.kernel "reduction_sum_sum_0" kind reduction mapping row_chain
// MAPPING-LABEL: func.func @max_mean
// MAPPING: kf.kernel "reduction_max_mean_1" kind reduction mapping row_chain
// RUN: kfuse-compile %s --emit=gpu | FileCheck %s --check-prefix=LAUNCH
// LAUNCH-LABEL: func.func @sum_sum
// LAUNCH: gpu.launch_func {{.*}} @kfuse_kernels::@reduction_sum_sum_0 blocks
// LAUNCH-NOT: gpu.launch_func
// The rows of 50 take one warp (passes/gpu/rows/RowOnChip.h): its shuffles
// give every lane the row's sum, no slots; the final reduction's 32 slots
// and the flag remain.
// LAUNCH-LABEL: gpu.func @reduction_sum_sum_0(
// LAUNCH-SAME: workgroup(%{{.*}} : memref<32xf32, #gpu.address_space<workgroup>>, %[[FLAG:.*]] : memref<1xi32, #gpu.address_space<workgroup>>)
// The rows (block b < rows), then in every block the ticket.
// LAUNCH: scf.if
// LAUNCH: memref.store %{{.*}}, %{{.*}}[%block_id_x] : memref<6xf32>
// LAUNCH: memref.atomic_rmw addi
// LAUNCH: memref.store %{{.*}}, %[[FLAG]]
// LAUNCH: gpu.barrier
// LAUNCH: %[[F:.*]] = memref.load %[[FLAG]]
// LAUNCH: %[[LAST:.*]] = arith.cmpi ne, %[[F]]
// LAUNCH: scf.if %[[LAST]] {
// The final reduction: the threads stride over the 6 rows' values (a float
// sum compensated as in every row mapping: runs of 16 of a thread's values).
// LAUNCH: scf.for %{{.*}} = %thread_id_x to %{{.*}} step
// LAUNCH: memref.load %{{.*}} : memref<6xf32>
// LAUNCH: gpu.shuffle xor
// LAUNCH: memref.store %{{.*}}, %{{.*}}[] : memref<f32>
// LAUNCH: gpu.return
//
// One entry a kernel, the atomic ticket in it (ptxas.mlir assembles them).
// RUN: kfuse-compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX-LABEL: .entry reduction_sum_sum_0(
// PTX: atom.global.add.u32
// PTX-LABEL: .entry reduction_max_mean_1(
//
// Executed with the blocks in order and from the last, at two block sizes,
// against the CPU pipeline (which runs the kernels' ops in place). Sums
// combine in a tree (tolerance 1e-5).
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-5 --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-5 --candidate=--kf-gpu-emulation-reversed-pipeline %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-5 --candidate=--kf-gpu-emulation-pipeline=block-size=64 %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-5 --candidate=--kf-gpu-emulation-reversed-pipeline=block-size=64 %s
//
// The host runtime (a row a block on the cores, real atomics), against
// numpy, three calls in a row, and against the CPU pipeline.
// RUN: %run-check %s --input "arg0=f32[6x50]" --expect "arg0.sum(1).sum()" \
// RUN:   -- --entry=sum_sum --device=cpu --repeat=3 --check | FileCheck %s --check-prefix=HOST
// HOST: first call: {{.*}}, 1 launch
// HOST: steady state: 3 calls, {{.*}}, 1 launch a call
// HOST: check against the CPU, unfused: {{.*}}: ok
// HOST: run_check: result0 float32[] matches numpy
// RUN: %run-check %s --input "arg0=f32[300x40]" --expect "arg0.max(1).mean()" \
// RUN:   -- --entry=max_mean --device=cpu --repeat=2 | FileCheck %s --check-prefix=HOST-MEAN
// HOST-MEAN: run_check: result0 float32[] matches numpy
// RUN: %run-check %s --input "arg0=f32[5x7x33]" --expect "np.exp((arg0 * arg0).sum(-1))" \
// RUN:   --expect "np.sqrt(np.exp((arg0 * arg0).sum(-1)).sum())" \
// RUN:   -- --entry=rows_3d --device=cpu --repeat=2 | FileCheck %s --check-prefix=HOST-3D
// HOST-3D: run_check: result0 float32[5, 7] matches numpy
// HOST-3D: run_check: result1 float32[] matches numpy
// RUN: %run-check %s --input "arg0=i32[8x100]" --expect "arg0.max(1).max(keepdims=True)" \
// RUN:   -- --entry=int_max_keepdim --device=cpu --repeat=2 | FileCheck %s --check-prefix=HOST-INT
// HOST-INT: run_check: result0 int32[1] matches numpy
// RUN: %run-check %s --input "arg0=f32[0x20]" --expect "arg0.sum(1).sum()" \
// RUN:   -- --entry=sum_sum_no_rows --device=cpu --repeat=2 | FileCheck %s --check-prefix=HOST-NOROWS
// HOST-NOROWS: run_check: result0 float32[] matches numpy

// DIMS @max_mean: 300

// x.sum(1).sum(0): 6 rows of 50.
func.func @sum_sum(%x: tensor<6x50xf32>) -> tensor<f32> {
  %r = kf.kernel "reduction_sum_sum_0" kind reduction -> tensor<f32> {
    %cst = arith.constant 0.000000e+00 : f32
    %e0 = tensor.empty() : tensor<6xf32>
    %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<6xf32>) -> tensor<6xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x50xf32>) outs(%f0 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<6xf32>
    %e1 = tensor.empty() : tensor<f32>
    %f1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<f32>) -> tensor<f32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%s : tensor<6xf32>) outs(%f1 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<f32>
    kf.yield %t : tensor<f32>
  }
  return %r : tensor<f32>
}

// x.max(-1).mean() over a dynamic number of rows (300: more rows than the
// last block has threads at block size 64): the mean's division is an op
// over the final value.
func.func @max_mean(%x: tensor<?x40xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x40xf32>
  %ni = arith.index_cast %n : index to i64
  %nf = arith.sitofp %ni : i64 to f32
  %r = kf.kernel "reduction_max_mean_1" kind reduction -> tensor<f32> {
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.000000e+00 : f32
    %e0 = tensor.empty(%n) : tensor<?xf32>
    %f0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<?xf32>) -> tensor<?xf32>
    %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x40xf32>) outs(%f0 : tensor<?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.maximumf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<?xf32>
    %e1 = tensor.empty() : tensor<f32>
    %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<f32>) -> tensor<f32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%m : tensor<?xf32>) outs(%f1 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<f32>
    %e2 = tensor.empty() : tensor<f32>
    %d = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%s : tensor<f32>) outs(%e2 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.divf %in, %nf : f32
      linalg.yield %v : f32
    } -> tensor<f32>
    kf.yield %d : tensor<f32>
  }
  return %r : tensor<f32>
}

// Rows of two dims ([5, 7], columns of 33): a prologue over rows x columns,
// an op over the rows (written out too), the final sum over the rows, the
// square root of the total.
func.func @rows_3d(%x: tensor<5x7x33xf32>) -> (tensor<5x7xf32>, tensor<f32>) {
  %r:2 = kf.kernel "reduction_mul_sum_exp_sum_sqrt_2" kind reduction -> tensor<5x7xf32>, tensor<f32> {
    %cst = arith.constant 0.000000e+00 : f32
    %e0 = tensor.empty() : tensor<5x7x33xf32>
    %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<5x7x33xf32>) outs(%e0 : tensor<5x7x33xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.mulf %in, %in : f32
      linalg.yield %v : f32
    } -> tensor<5x7x33xf32>
    %e1 = tensor.empty() : tensor<5x7xf32>
    %f1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<5x7xf32>) -> tensor<5x7xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sq : tensor<5x7x33xf32>) outs(%f1 : tensor<5x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<5x7xf32>
    %e2 = tensor.empty() : tensor<5x7xf32>
    %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<5x7xf32>) outs(%e2 : tensor<5x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = math.exp %in : f32
      linalg.yield %v : f32
    } -> tensor<5x7xf32>
    %e3 = tensor.empty() : tensor<f32>
    %f3 = linalg.fill ins(%cst : f32) outs(%e3 : tensor<f32>) -> tensor<f32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%ex : tensor<5x7xf32>) outs(%f3 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<f32>
    %e4 = tensor.empty() : tensor<f32>
    %q = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%t : tensor<f32>) outs(%e4 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %v = math.sqrt %in : f32
      linalg.yield %v : f32
    } -> tensor<f32>
    kf.yield %ex, %q : tensor<5x7xf32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<5x7xf32>, tensor<f32>
}

// An integer max of row maxima kept as [1]: the final reduction has a unit
// parallel loop (its result is one value all the same).
func.func @int_max_keepdim(%x: tensor<8x100xi32>) -> tensor<1xi32> {
  %r = kf.kernel "reduction_max_max_3" kind reduction -> tensor<1xi32> {
    %min = arith.constant -2147483648 : i32
    %e0 = tensor.empty() : tensor<8xi32>
    %f0 = linalg.fill ins(%min : i32) outs(%e0 : tensor<8xi32>) -> tensor<8xi32>
    %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x100xi32>) outs(%f0 : tensor<8xi32>) {
    ^bb0(%in: i32, %out: i32):
      %v = arith.maxsi %out, %in : i32
      linalg.yield %v : i32
    } -> tensor<8xi32>
    %e1 = tensor.empty() : tensor<1xi32>
    %f1 = linalg.fill ins(%min : i32) outs(%e1 : tensor<1xi32>) -> tensor<1xi32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%m : tensor<8xi32>) outs(%f1 : tensor<1xi32>) {
    ^bb0(%in: i32, %out: i32):
      %v = arith.maxsi %out, %in : i32
      linalg.yield %v : i32
    } -> tensor<1xi32>
    kf.yield %t : tensor<1xi32>
  }
  return %r : tensor<1xi32>
}

// Emulated with 3 rows (fusion_diff makes no empty inputs); on the host
// with none (a [0, 20] input): one block, which is also the last; the
// final sum of nothing is 0.
func.func @sum_sum_no_rows(%x: tensor<?x20xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x20xf32>
  %r = kf.kernel "reduction_sum_sum_4" kind reduction -> tensor<f32> {
    %cst = arith.constant 0.000000e+00 : f32
    %e0 = tensor.empty(%n) : tensor<?xf32>
    %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<?xf32>) -> tensor<?xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x20xf32>) outs(%f0 : tensor<?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<?xf32>
    %e1 = tensor.empty() : tensor<f32>
    %f1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<f32>) -> tensor<f32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%s : tensor<?xf32>) outs(%f1 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<f32>
    kf.yield %t : tensor<f32>
  }
  return %r : tensor<f32>
}
