// kf.cumsum as a library on the CPU (kfuse-compile, run by kfuse-run)
// against numpy's cumsum in float64, and its launch: the scan mapping
// (launch/ScanKernels.cpp), a thread a line walking it once, blocks of
// lines spread over the cores.
// RUN: kfuse-compile %s --emit=lib -o %t.so
// 64 rows of 1000 terms in [-2, 2]: the bound kfuse documents for any
// target (a compensated f32 sum's, 2 u sum|x| <= 2 * 2^-24 * 2000 =
// 2.4e-4; the host's f64 sum is well within it), plus the result's rounding.
// RUN: %run-check %t.so --input "arg0=f32[64x1000]" \
// RUN:   --expect "np.cumsum(arg0.astype(np.float64), axis=1)" \
// RUN:   --rtol 2e-7 --atol 2.4e-4 -- --entry rows --device=cpu --repeat=0 | FileCheck %s --check-prefix=ROWS
// ROWS: run_check: result0 float32[64, 1000] matches numpy
// Along dim 0 of 300 x 70 (lines strided in memory), and a dynamic size.
// RUN: %run-check %t.so --input "arg0=f32[300x70]" \
// RUN:   --expect "np.cumsum(arg0.astype(np.float64), axis=0)" \
// RUN:   --rtol 2e-7 --atol 1.2e-4 -- --entry columns --device=cpu --repeat=0 | FileCheck %s --check-prefix=COLS
// COLS: run_check: result0 float32[300, 70] matches numpy
// Integers: exact (i32 in, i64 out), and a bool mask's positions.
// RUN: %run-check %t.so --input "arg0=i32[5x333]" --input "arg1=i1[4x129]" \
// RUN:   --expect "np.cumsum(arg0.astype(np.int64), axis=1)" \
// RUN:   --expect "np.where(arg1, np.cumsum(arg1, axis=1) - 1, 1)" \
// RUN:   -- --entry ints --device=cpu --repeat=0 | FileCheck %s --check-prefix=INTS
// INTS: run_check: result0 int64[5, 333] matches numpy
// INTS: run_check: result1 int64[4, 129] matches numpy
// The same through kfuse-run --check: the float64 reference's rule for
// cumsum (ReductionRules.cpp) bounds the error of every element.
// RUN: kfuse-run %s --entry rows --device=cpu --repeat=0 --check --cache-dir=%t.cache | FileCheck %s --check-prefix=CHECKED
// CHECKED: check against the CPU, unfused: in float64, {{.*}}: ok
// The GPU's PTX assembles.
// RUN: kfuse-compile %s --emit=ptx -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_75 %t.ptx -o /dev/null %}

// The launch on the host: blocks of one thread over shares of the lines,
// each line a loop carrying its running sum in f64 (as PyTorch's CPU
// kernel: one add a term on the chain), each element rounded to f32 and
// stored as it is reached.
// RUN: kfuse-opt %s --kf-host-runtime-pipeline --mlir-print-ir-after=kf-map-kernels-to-host -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LAUNCH
// LAUNCH-LABEL: func.func @rows
// LAUNCH: gpu.launch
// LAUNCH: scf.for %[[LINE:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// LAUNCH: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[S:.*]] = %{{.*}}) -> (f64) {
// LAUNCH: %[[X:.*]] = memref.load %{{.*}}[%[[LINE]], %[[I]]] : memref<64x1000xf32>
// LAUNCH: %[[W:.*]] = arith.extf %{{.*}} : f32 to f64
// LAUNCH: %[[NEXT:.*]] = arith.addf %[[S]], %[[W]] : f64
// LAUNCH: %[[V:.*]] = arith.truncf %[[NEXT]] : f64 to f32
// LAUNCH: memref.store %[[V]], %{{.*}}[%[[LINE]], %[[I]]] : memref<64x1000xf32>
// LAUNCH: scf.yield %[[NEXT]] : f64
// LAUNCH: gpu.terminator
// Along dim 0 (HostScan.cpp): groups of 16 adjacent columns walked
// together, a masked vector load a row (70 columns: 4 whole groups and 6
// lanes of a fifth), the sums a vector of f64.
// LAUNCH-LABEL: func.func @columns
// LAUNCH: gpu.launch
// LAUNCH: %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<16xi1>
// LAUNCH: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[S:.*]] = %{{.*}}) -> (vector<16xf64>) {
// LAUNCH: vector.maskedload %{{.*}}[%[[I]], %[[COL:.*]]], %[[MASK]], %{{.*}} : memref<?x70xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// LAUNCH: arith.extf %{{.*}} : vector<16xf32> to vector<16xf64>
// LAUNCH: %[[NEXT:.*]] = arith.addf %[[S]], %{{.*}} : vector<16xf64>
// LAUNCH: vector.maskedstore %{{.*}}[%[[I]], %[[COL]]], %[[MASK]], %{{.*}} : memref<?x70xf32>, vector<16xi1>, vector<16xf32>
// LAUNCH: scf.yield %[[NEXT]] : vector<16xf64>
// The GPU mapping: a thread a line, the sum compensated in f32 (a (sum, lost)
// pair), blocks of 256 threads.
// RUN: kfuse-opt %s --kf-gpu-emulation-pipeline --mlir-print-ir-after=kf-map-kernels-to-gpu -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GPU
// GPU-LABEL: func.func @rows
// GPU: gpu.launch
// GPU-SAME: threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c256{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// GPU: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32) {
// GPU-NOT: f64
// GPU: gpu.terminator

func.func @rows(%x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %0 = kf.cumsum %x dim 1 : tensor<64x1000xf32>
  return %0 : tensor<64x1000xf32>
}

func.func @columns(%x: tensor<?x70xf32>) -> tensor<?x70xf32> {
  %0 = kf.cumsum %x dim 0 : tensor<?x70xf32>
  return %0 : tensor<?x70xf32>
}

func.func @ints(%x: tensor<5x333xi32>, %m: tensor<4x129xi1>) -> (tensor<5x333xi64>, tensor<4x129xi64>) {
  %0 = kf.cumsum %x dim 1 : tensor<5x333xi32>
  %c = kf.cumsum %m dim 1 : tensor<4x129xi1>
  %one = kf.constant dense<1> : tensor<i64>
  %p = kf.sub %c, %one : tensor<4x129xi64>, tensor<i64>
  %pos = kf.where %m, %p, %one : tensor<4x129xi1>, tensor<4x129xi64>, tensor<i64>
  return %0, %pos : tensor<5x333xi64>, tensor<4x129xi64>
}
