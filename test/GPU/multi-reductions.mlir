// Multi-reductions (gpu/rows/MultiReductions.cpp, issue 26 item 2):
// reductions of one tensor over its rows and over its columns, formed into
// one kernel by the multi-reduction rule, run as one launch (mapping
// multi_reduction) that reads the tensor once: a block per band of rows,
// the rows' reductions combined across the block, each column's partial
// for the band in global memory, the last block to take the ticket
// combining the columns' partials in band order.
//
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings | FileCheck %s --check-prefix=MAPPING
// MAPPING-LABEL: func.func @sum_both
// MAPPING: kf.kernel "reduction_sum_sum_0" kind reduction mapping multi_reduction
// MAPPING-LABEL: func.func @four
// MAPPING: kind reduction mapping multi_reduction
//
// RUN: kfuse-compile %s --emit=gpu | FileCheck %s --check-prefix=LAUNCH
// The kernel's ticket, the partials (bands x columns) allocated around
// the one launch.
// LAUNCH: memref.global "private" @reduction_sum_sum_0_ticket : memref<1xi32> = dense<0>
// LAUNCH-LABEL: func.func @sum_both
// LAUNCH: %[[P:.*]], %{{.*}} = gpu.alloc async {{.*}} : memref<?x?xf32>
// LAUNCH: gpu.launch_func {{.*}} @kfuse_kernels::@reduction_sum_sum_0 blocks
// LAUNCH-NOT: gpu.launch_func
// LAUNCH: gpu.dealloc async {{.*}} %[[P]]
// The 32 static columns are one warp's, a column a thread: each column's
// partial for the band stays in the thread's registers (carried by the
// loop over the band's rows) and is stored once after it. Each element of
// x is loaded once and added to its column's partial and to the row's
// value; the row's sum is combined across the block (shuffles, slots) and
// stored by thread 0; a barrier before the next row reuses the slots.
// LAUNCH-LABEL: gpu.func @reduction_sum_sum_0(
// LAUNCH-SAME: known_block_size = array<i32: 32, 1, 1>
// LAUNCH: %[[BAND:.*]] = scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[COL:.*]] = %cst) -> (f32) {
// LAUNCH: %[[X:.*]] = memref.load %{{.*}}[%[[R]], %{{.*}}] : memref<64x32xf32>
// LAUNCH-NOT: memref.load {{.*}} : memref<64x32xf32>
// LAUNCH-NOT: memref<?x?xf32>
// LAUNCH: arith.addf %[[COL]], %[[X]] : f32
// LAUNCH: gpu.shuffle xor
// LAUNCH: memref.store %{{.*}} : memref<64xf32>
// LAUNCH: gpu.barrier
// LAUNCH: scf.yield
// LAUNCH: memref.store %[[BAND]], %[[PARTIAL:.*]][%block_id_x, %{{.*}}] : memref<?x?xf32>
// Then the ticket; the last block sums each column's partials over the
// bands and stores the column's value.
// LAUNCH: memref.atomic_rmw addi
// LAUNCH: scf.if
// LAUNCH: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1
// LAUNCH: memref.load %[[PARTIAL]]
// LAUNCH: memref.store %{{.*}} : memref<32xf32>
// LAUNCH: gpu.return
// Columns unknown until the launch: each band's partials start from 0 in
// global memory and are updated at every row by the thread that owns the
// column (a load, the add, a store).
// LAUNCH-LABEL: gpu.func @reduction_sum_sum_{{[0-9]+}}({{.*}}memref<40x?xf32>
// LAUNCH: memref.store %cst, %[[P:.*]][%block_id_x, %{{.*}}] : memref<?x?xf32>
// LAUNCH: %[[Y:.*]] = memref.load %{{.*}} : memref<40x?xf32>
// LAUNCH: %[[OLD:.*]] = memref.load %[[P]][%block_id_x, %{{.*}}]
// LAUNCH: %[[NEW:.*]] = arith.addf %[[OLD]], %[[Y]] : f32
// LAUNCH: memref.store %[[NEW]], %[[P]][%block_id_x, %{{.*}}]
//
// One entry a kernel with its atomic ticket; ptxas accepts it.
// RUN: kfuse-compile %s --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX-LABEL: .entry reduction_sum_sum_0(
// PTX: atom.global.add.u32
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
//
// Emulated GPU (blocks in order and from the last, two block sizes)
// against the CPU pipeline.
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-6 --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-6 --candidate=--kf-gpu-emulation-reversed-pipeline %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-6 --candidate=--kf-gpu-emulation-pipeline=block-size=64 %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-6 --candidate=--kf-gpu-emulation-reversed-pipeline=block-size=64 %s
//
// The host runtime (a band of rows a core, real atomics) against numpy:
// rows of every band count (70 rows: 3 bands of 24, 24, 22), columns
// longer than a block strides (300 columns: a thread owns several),
// 40000 rows (1024 bands of 40), a dynamic number of rows, no rows at all
// (sum(0) is 0s), three dims, integers (an i32 sum is i64).
// RUN: %run-check %s --input "arg0=f32[70x300]" --expect "arg0.sum(0)" --expect "arg0.sum(1)" \
// RUN:   -- --entry=sum_wide --device=cpu --repeat=3 --check | FileCheck %s --check-prefix=HOST
// HOST: steady state: 3 calls, {{.*}}, 1 launch a call
// HOST: check against the CPU, unfused: {{.*}}: ok
// HOST: run_check: result0 float32[300] matches numpy
// HOST: run_check: result1 float32[70] matches numpy
// RUN: %run-check %s --input "arg0=f32[40000x3]" --expect "arg0.sum(0)" --expect "arg0.max(0)" \
// RUN:   --expect "arg0.sum(1)" --expect "arg0.max(1)" \
// RUN:   -- --entry=four --device=cpu --repeat=2 | FileCheck %s --check-prefix=HOST-FOUR
// HOST-FOUR: run_check: result0 float32[3] matches numpy
// HOST-FOUR: run_check: result3 float32[40000] matches numpy
// RUN: %run-check %s --input "arg0=f32[100x24]" --input "arg1=f32[24]" \
// RUN:   --expect "arg0.mean(0) * arg1" --expect "arg0.mean(1, keepdims=True)" \
// RUN:   -- --entry=means --device=cpu --repeat=2 | FileCheck %s --check-prefix=HOST-MEANS
// HOST-MEANS: run_check: result0 float32[24] matches numpy
// HOST-MEANS: run_check: result1 float32[100, 1] matches numpy
// RUN: %run-check %s --input "arg0=f32[0x20]" --expect "arg0.sum(0)" --expect "arg0.sum(1)" \
// RUN:   -- --entry=dynamic_rows --device=cpu --repeat=2 | FileCheck %s --check-prefix=HOST-NOROWS
// HOST-NOROWS: run_check: result0 float32[20] matches numpy
// HOST-NOROWS: run_check: result1 float32[0] matches numpy
// RUN: %run-check %s --input "arg0=f32[333x20]" --expect "arg0.sum(0)" --expect "arg0.sum(1)" \
// RUN:   -- --entry=dynamic_rows --device=cpu --repeat=2 | FileCheck %s --check-prefix=HOST-DYN
// HOST-DYN: run_check: result0 float32[20] matches numpy
// RUN: %run-check %s --input "arg0=f32[5x6x40]" --expect "arg0.sum(2)" --expect "arg0.max((0, 1))" \
// RUN:   -- --entry=three_dims --device=cpu --repeat=2 | FileCheck %s --check-prefix=HOST-3D
// HOST-3D: run_check: result0 float32[5, 6] matches numpy
// HOST-3D: run_check: result1 float32[40] matches numpy
// RUN: %run-check %s --input "arg0=i32[50x9]" --expect "arg0.max(0)" --expect "arg0.sum(1)" \
// RUN:   -- --entry=integers --device=cpu --repeat=2 | FileCheck %s --check-prefix=HOST-INT
// HOST-INT: run_check: result0 int32[9] matches numpy
// HOST-INT: run_check: result1 int64[50] matches numpy

// A prologue (the reductions' tensor computed in the kernel), its value
// also returned: written once.
// RUN: %run-check %s --input "arg0=f32[70x300]" --input "arg1=f32[300]" \
// RUN:   --expect "np.exp(arg0 + arg1)" --expect "np.exp(arg0 + arg1).sum(0)" \
// RUN:   --expect "np.exp(arg0 + arg1).max(1)" \
// RUN:   -- --entry=prologue --device=cpu --repeat=2 --check | FileCheck %s --check-prefix=HOST-PRO
// HOST-PRO: check against the CPU, unfused: {{.*}}: ok
// HOST-PRO: run_check: result0 float32[70, 300] matches numpy
// HOST-PRO: run_check: result1 float32[300] matches numpy
// HOST-PRO: run_check: result2 float32[70] matches numpy

// DIMS @dynamic_rows: 333
// DIMS @four: 1000
// DIMS @dynamic_cols: 300

func.func @sum_both(%x: tensor<64x32xf32>) -> (tensor<32xf32>, tensor<64xf32>) {
  %a = kf.sum %x dims [0] : tensor<64x32xf32>
  %b = kf.sum %x dims [1] : tensor<64x32xf32>
  return %a, %b : tensor<32xf32>, tensor<64xf32>
}

func.func @sum_wide(%x: tensor<70x300xf32>) -> (tensor<300xf32>, tensor<70xf32>) {
  %a = kf.sum %x dims [0] : tensor<70x300xf32>
  %b = kf.sum %x dims [1] : tensor<70x300xf32>
  return %a, %b : tensor<300xf32>, tensor<70xf32>
}

// exp(x + b) over 70 x 300, reduced both ways and returned; on the GPU
// 256 threads of 2 columns each (registers), the exp computed at each
// element before the reductions and stored once.
func.func @prologue(%x: tensor<70x300xf32>, %b: tensor<300xf32>) -> (tensor<70x300xf32>, tensor<300xf32>, tensor<70xf32>) {
  %s = kf.add %x, %b : tensor<70x300xf32>, tensor<300xf32>
  %e = kf.exp %s : tensor<70x300xf32>
  %a = kf.sum %e dims [0] : tensor<70x300xf32>
  %m = kf.max %e dims [1] : tensor<70x300xf32>
  return %e, %a, %m : tensor<70x300xf32>, tensor<300xf32>, tensor<70xf32>
}

// Columns known only at run time: the partials in memory.
func.func @dynamic_cols(%x: tensor<40x?xf32>) -> (tensor<?xf32>, tensor<40xf32>) {
  %a = kf.sum %x dims [0] : tensor<40x?xf32>
  %b = kf.sum %x dims [1] : tensor<40x?xf32>
  return %a, %b : tensor<?xf32>, tensor<40xf32>
}

// 1000 columns: 256 threads of 4 columns each (the last 24 threads own 3),
// in registers on the GPU; 37 rows: 2 bands.
func.func @four_per_thread(%x: tensor<37x1000xf32>) -> (tensor<1000xf32>, tensor<37xf32>) {
  %a = kf.max %x dims [0] : tensor<37x1000xf32>
  %b = kf.sum %x dims [1] : tensor<37x1000xf32>
  return %a, %b : tensor<1000xf32>, tensor<37xf32>
}

func.func @four(%x: tensor<?x3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<?xf32>, tensor<?xf32>) {
  %a = kf.sum %x dims [0] : tensor<?x3xf32>
  %b = kf.max %x dims [0] : tensor<?x3xf32>
  %c = kf.sum %x dims [1] : tensor<?x3xf32>
  %d = kf.max %x dims [1] : tensor<?x3xf32>
  return %a, %b, %c, %d : tensor<3xf32>, tensor<3xf32>, tensor<?xf32>, tensor<?xf32>
}

func.func @means(%x: tensor<100x24xf32>, %w: tensor<24xf32>) -> (tensor<24xf32>, tensor<100x1xf32>) {
  %a = kf.mean %x dims [0] : tensor<100x24xf32>
  %aw = kf.mul %a, %w : tensor<24xf32>, tensor<24xf32>
  %b = kf.mean %x dims [1] keepdim : tensor<100x24xf32>
  return %aw, %b : tensor<24xf32>, tensor<100x1xf32>
}

func.func @dynamic_rows(%x: tensor<?x20xf32>) -> (tensor<20xf32>, tensor<?xf32>) {
  %a = kf.sum %x dims [0] : tensor<?x20xf32>
  %b = kf.sum %x dims [1] : tensor<?x20xf32>
  return %a, %b : tensor<20xf32>, tensor<?xf32>
}

func.func @three_dims(%x: tensor<5x6x40xf32>) -> (tensor<5x6xf32>, tensor<40xf32>) {
  %a = kf.sum %x dims [2] : tensor<5x6x40xf32>
  %b = kf.max %x dims [0, 1] : tensor<5x6x40xf32>
  return %a, %b : tensor<5x6xf32>, tensor<40xf32>
}

func.func @integers(%x: tensor<50x9xi32>) -> (tensor<9xi32>, tensor<50xi64>) {
  %a = kf.max %x dims [0] : tensor<50x9xi32>
  %b = kf.sum %x dims [1] : tensor<50x9xi32>
  return %a, %b : tensor<9xi32>, tensor<50xi64>
}
