// A small reduction (at most 8 static elements a result) read at each of
// its elements by a row reduction joins that reduction's kernel as its
// prologue (issue 26's neighbour-distance reduction feeding a max: the
// squared distances of all pairs of 3-D points, summed over the 3
// coordinates, then the largest distance of each point). The planner lets
// the edge fuse by the rule reduction-prologue (only while small-reduction
// makes the sums a thread's straight-line code), and formation unrolls the
// sums over k into the body of the max over j (unrollReductionLoops): one
// row reduction over (i, j) that reads x[i, c] and x[j, c] for each c and
// never writes the pairs. Counts argued by hand; a tensor read twice by
// one kernel counts once.
// RUN: kfuse-opt %s -split-input-file --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-kernel-report=reduction-prologue=false -o /dev/null | FileCheck %s --check-prefix=NOPROLOGUE
// RUN: kfuse-opt %s -split-input-file --kf-kernel-report=small-reduction=false -o /dev/null | FileCheck %s --check-prefix=NOSMALL
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels | FileCheck %s --check-prefix=FORM
// Results: CPU and the emulated GPU row kernels (blocks in order and from
// the last) against the unfused run.
// RUN: %fusion-diff %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-6 --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-6 --candidate=--kf-gpu-emulation-reversed-pipeline %s
// And against numpy in float64 (independent), fused through kfuse-run on
// the CPU, at dynamic sizes. A sum of 2 to 4 squared (or absolute)
// differences of normal values has a relative f32 error of a few ulps,
// and max and min are exact: rtol 1e-5. softmax of the negative distances:
// values in (0, 1], a few ulps relative, down to exp(-40) and below for
// far points, where atol 1e-7 covers the absolute error.
// RUN: %run-check %S/Inputs/neighbour-distance-run.mlir --input "arg0=f32[203x3]" \
// RUN:   --expect "((arg0[:, None, :].astype(np.float64) - arg0[None, :, :]) ** 2).sum(2).max(1)" \
// RUN:   --rtol=1e-5 --atol=0 -- --entry=farthest --device=cpu --repeat=2 --check | FileCheck %s --check-prefix=NUMPY
// RUN: %run-check %S/Inputs/neighbour-distance-run.mlir --input "arg0=f32[61x4]" --input "arg1=f32[150x4]" \
// RUN:   --expect "np.abs(arg0[:, None, :].astype(np.float64) - arg1[None, :, :]).sum(2).min(0)" \
// RUN:   --rtol=1e-5 --atol=0 -- --entry=nearest --device=cpu --repeat=2 --check | FileCheck %s --check-prefix=NUMPY
// RUN: %run-check %S/Inputs/neighbour-distance-run.mlir --input "arg0=f32[99x2]" \
// RUN:   --expect "softmax(-((arg0[:, None, :].astype(np.float64) - arg0[None, :, :]) ** 2).sum(2), 1)" \
// RUN:   --rtol=1e-5 --atol=1e-7 -- --entry=soft_neighbours --device=cpu --repeat=2 --check | FileCheck %s --check-prefix=NUMPY
// Two reduced dims (a 2 x 2 block of products a pair), unrolled in loop
// order; the exp of the sums then summed over the 53 of each row: a sum
// of positive values, rtol 1e-5.
// RUN: %run-check %S/Inputs/neighbour-distance-run.mlir --input "arg0=f32[37x2x2]" --input "arg1=f32[53x2x2]" \
// RUN:   --expect "np.exp((arg0[:, None].astype(np.float64) * arg1[None, :]).sum((2, 3))).sum(1)" \
// RUN:   --rtol=1e-5 --atol=0 -- --entry=pair_products --device=cpu --repeat=2 --check | FileCheck %s --check-prefix=NUMPY
// NUMPY: check against the CPU, unfused: {{.*}}: ok
// NUMPY: run_check: result0 {{.*}} matches numpy
// The host row kernel loads x[i, c] once a row and gathers x[j, c] for 8
// points j at a time (a stride of 3 floats apart), with the row's tail
// masked: no scalar loop over the pairs.
// RUN: kfuse-opt %S/Inputs/neighbour-distance-run.mlir --kf-host-runtime-pipeline \
// RUN:   --mlir-print-ir-after=kf-map-kernels-to-host -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOST
// HOST-LABEL: func.func @farthest
// HOST: memref.load %arg0[%[[I:.*]], %c0{{.*}}] : memref<?x3xf32>
// HOST: vector.gather %arg0[{{.*}}] [{{.*}}], {{.*}} : memref<?x3xf32>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// HOST-LABEL: func.func @nearest
// The GPU kernels compile for an H100/H200 without spilling.
// RUN: %if ptxas %{ kfuse-compile %S/Inputs/neighbour-distance-run.mlir --emit=ptx --gpu-chip=sm_90 -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -v -arch=sm_90 %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: Compiling entry function 'reduction_sub_mul_sum_max_{{[0-9]+}}'
// PTXAS-NOT: spill stores
// PTXAS: 0 bytes spill stores

// x [32, 3]. Eager sub (x read once: 96, 3072 out), mul (3072, 3072), sum
// (3072, 1024), max (1024, 32): 14464 elements. Fused: x in, the 32 maxima
// out: 128. Without the rule the pairs' sub and mul are one kernel, the
// sums (a thread each) another and the max a third: 3168 + 4096 + 1056 =
// 8320.
// CHECK-LABEL: function @farthest
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 4 1
// CHECK-NEXT: transfers 8 2
// CHECK-NEXT: elements 14464 128
// CHECK: reduction_sub_mul_sum_max_{{[0-9]+}} (reduction): ops sub, mul, sum, max
// CHECK: runs as row
// CHECK: boundaries: none
// NOPROLOGUE-LABEL: function @farthest
// NOPROLOGUE-NEXT: eager fused
// NOPROLOGUE-NEXT: kernels 4 3
// NOPROLOGUE: elements 14464 8320
// NOPROLOGUE: (sum -> max): rule-disabled: reduction-prologue=false
// With small-reduction off the sums are a row kernel of their own (rows
// of 3): a reduction's result into another reduction, as before.
// NOSMALL-LABEL: function @farthest
// NOSMALL-NEXT: eager fused
// NOSMALL-NEXT: kernels 4 2
// NOSMALL: (sum -> max): producer-reduction: producer is a reduction
// The one op: the max over j whose body computes the three squared
// differences (x[i, c] - x[j, c]) ** 2 and sums them from 0, in order.
// FORM-LABEL: func.func @farthest
// FORM: kf.kernel "reduction_sub_mul_sum_max_{{[0-9]+}}" kind reduction
// FORM: linalg.generic {indexing_maps = [#[[I0:map[0-9]*]], #[[J0:map[0-9]*]], #[[I1:map[0-9]*]], #[[J1:map[0-9]*]], #[[I2:map[0-9]*]], #[[J2:map[0-9]*]], #{{map[0-9]*}}], iterator_types = ["parallel", "reduction"]}
// FORM-SAME: outs({{.*}} : tensor<32xf32>)
// FORM: %[[D0:.*]] = arith.subf
// FORM: %[[Q0:.*]] = arith.mulf %[[D0]], %[[D0]]
// FORM: %[[S0:.*]] = arith.addf %[[Q0]], %{{.*}}
// FORM: arith.subf
// FORM: %[[Q1:.*]] = arith.mulf
// FORM: %[[S1:.*]] = arith.addf %[[S0]], %[[Q1]]
// FORM: arith.subf
// FORM: %[[Q2:.*]] = arith.mulf
// FORM: %[[S2:.*]] = arith.addf %[[S1]], %[[Q2]]
// FORM: arith.maximumf %{{.*}}, %[[S2]]
// FORM-NOT: linalg.generic
// FORM: kf.yield
func.func @farthest(%x: tensor<32x3xf32>) -> tensor<32xf32> {
  %a = kf.reshape %x [32, 1, 3] : tensor<32x3xf32>
  %b = kf.reshape %x [1, 32, 3] : tensor<32x3xf32>
  %d = kf.sub %a, %b : tensor<32x1x3xf32>, tensor<1x32x3xf32>
  %q = kf.mul %d, %d : tensor<32x32x3xf32>, tensor<32x32x3xf32>
  %s = kf.sum %q dims [2] : tensor<32x32x3xf32>
  %m = kf.max %s dims [1] : tensor<32x32xf32>
  return %m : tensor<32xf32>
}

// -----

// The nearest of 32 points in 4-D to each of 48 others, by L1 distance:
// the min reduces the leading dim. Eager sub (128 + 192, 6144), abs (6144,
// 6144), sum (6144, 1536), min (1536, 48): 28016. Fused: 128 + 192 + 48.
// CHECK-LABEL: function @nearest
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 4 1
// CHECK-NEXT: transfers 9 3
// CHECK-NEXT: elements 28016 368
func.func @nearest(%x: tensor<32x4xf32>, %y: tensor<48x4xf32>) -> tensor<48xf32> {
  %a = kf.reshape %x [32, 1, 4] : tensor<32x4xf32>
  %b = kf.reshape %y [1, 48, 4] : tensor<48x4xf32>
  %d = kf.sub %a, %b : tensor<32x1x4xf32>, tensor<1x48x4xf32>
  %q = kf.abs %d : tensor<32x48x4xf32>
  %s = kf.sum %q dims [2] : tensor<32x48x4xf32>
  %m = kf.min %s dims [0] : tensor<32x48xf32>
  return %m : tensor<48xf32>
}

// -----

// The sums read by an elementwise op, then a softmax over j (attention by
// distance): the sums are computed at each element the softmax's row
// reads. Eager sub (32, 512), mul (512, 512), sum (512, 256), neg (256,
// 256), max (256, 16), sub (256 + 16, 256), exp (256, 256), sum (256, 16),
// div (256 + 16, 256): 4960. Fused: x in (32), the 16 x 16 out: 288.
// CHECK-LABEL: function @soft_neighbours
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 9 1
// CHECK-NEXT: transfers 20 2
// CHECK-NEXT: elements 4960 288
func.func @soft_neighbours(%x: tensor<16x2xf32>) -> tensor<16x16xf32> {
  %a = kf.reshape %x [16, 1, 2] : tensor<16x2xf32>
  %b = kf.reshape %x [1, 16, 2] : tensor<16x2xf32>
  %d = kf.sub %a, %b : tensor<16x1x2xf32>, tensor<1x16x2xf32>
  %q = kf.mul %d, %d : tensor<16x16x2xf32>, tensor<16x16x2xf32>
  %s = kf.sum %q dims [2] : tensor<16x16x2xf32>
  %n = kf.neg %s : tensor<16x16xf32>
  %p = kf.softmax %n dim 1 : tensor<16x16xf32>
  return %p : tensor<16x16xf32>
}

// -----

// The sums also a result: the row kernel writes them as it computes them.
// Fused: x in (96), the sums (1024) and the maxima (32) out.
// CHECK-LABEL: function @sums_returned
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 4 1
// CHECK-NEXT: transfers 8 3
// CHECK-NEXT: elements 14464 1152
func.func @sums_returned(%x: tensor<32x3xf32>) -> (tensor<32x32xf32>, tensor<32xf32>) {
  %a = kf.reshape %x [32, 1, 3] : tensor<32x3xf32>
  %b = kf.reshape %x [1, 32, 3] : tensor<32x3xf32>
  %d = kf.sub %a, %b : tensor<32x1x3xf32>, tensor<1x32x3xf32>
  %q = kf.mul %d, %d : tensor<32x32x3xf32>, tensor<32x32x3xf32>
  %s = kf.sum %q dims [2] : tensor<32x32x3xf32>
  %m = kf.max %s dims [1] : tensor<32x32xf32>
  return %s, %m : tensor<32x32xf32>, tensor<32xf32>
}

// -----

// Refused: points of 16 dims. A sum of 16 is no small reduction (more
// than 8 elements a result is a row kernel's work), so it is a row kernel
// of its own and the max another: x (512) in, the sums (1024) out and
// back, 32 out: 2592.
// CHECK-LABEL: function @wide_points
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 4 2
// CHECK: elements 68128 2592
// CHECK: (sum -> max): producer-reduction: producer is a reduction
func.func @wide_points(%x: tensor<32x16xf32>) -> tensor<32xf32> {
  %a = kf.reshape %x [32, 1, 16] : tensor<32x16xf32>
  %b = kf.reshape %x [1, 32, 16] : tensor<32x16xf32>
  %d = kf.sub %a, %b : tensor<32x1x16xf32>, tensor<1x32x16xf32>
  %q = kf.mul %d, %d : tensor<32x32x16xf32>, tensor<32x32x16xf32>
  %s = kf.sum %q dims [2] : tensor<32x32x16xf32>
  %m = kf.max %s dims [1] : tensor<32x32xf32>
  return %m : tensor<32xf32>
}

// -----

// Refused: the max reads the sums transposed too (d[i, j] + d[j, i]): row
// i would need the sums of every row j, which no block owns.
// CHECK-LABEL: function @symmetrized
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 5 2
func.func @symmetrized(%x: tensor<32x3xf32>) -> tensor<32xf32> {
  %a = kf.reshape %x [32, 1, 3] : tensor<32x3xf32>
  %b = kf.reshape %x [1, 32, 3] : tensor<32x3xf32>
  %d = kf.sub %a, %b : tensor<32x1x3xf32>, tensor<1x32x3xf32>
  %q = kf.mul %d, %d : tensor<32x32x3xf32>, tensor<32x32x3xf32>
  %s = kf.sum %q dims [2] : tensor<32x32x3xf32>
  %t = kf.transpose %s [1, 0] : tensor<32x32xf32>
  %u = kf.add %s, %t : tensor<32x32xf32>, tensor<32x32xf32>
  %m = kf.max %u dims [1] : tensor<32x32xf32>
  return %m : tensor<32xf32>
}
