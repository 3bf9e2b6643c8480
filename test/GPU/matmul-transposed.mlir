// Matmul kernels reading a transposed operand in place (`a.t() @ b`,
// `x @ w.t()`, both): the tile mapping stages each 16x16 tile so that the
// global reads stay coalesced for either layout (consecutive threads, tx,
// read consecutive elements of the stored operand's last dim) and a
// transposed operand's element goes to shared memory at the swapped place,
// its tile padded to 17 columns (no bank conflicts on those column writes).
// Executed three ways: the GPU mapping emulated on the host against the CPU
// pipeline (sizes cut by the tile edges, an epilogue, f16, dynamic sizes),
// the host mapping through kfuse-run against numpy, and the PTX through
// ptxas where it is installed.
// RUN: kfuse-compile %s --emit=gpu | FileCheck %s --check-prefix=LAUNCH
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings | FileCheck %s --check-prefix=MAPPING
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline --reference=--kf-cpu-pipeline=fusion=on %s
// RUN: kfuse-compile %s --emit=ptx -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_75 %t.ptx -o %t.cubin %}
// RUN: %run-check %s --input "arg0=f32[50x37]" --input "arg1=f32[50x23]" --expect "arg0.T @ arg1" \
// RUN:   -- --entry=at_b --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=HOST
// RUN: %run-check %s --input "arg0=f32[37x50]" --input "arg1=f32[23x50]" --input "arg2=f32[23]" \
// RUN:   --expect "np.maximum(arg0 @ arg1.T + arg2, 0)" \
// RUN:   -- --entry=linear_relu --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=HOST
// RUN: %run-check %s --input "arg0=f32[50x37]" --input "arg1=f32[23x50]" --expect "arg0.T @ arg1.T" \
// RUN:   -- --entry=at_wt --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=HOST
// DIMS: 37

// HOST: check against the CPU, unfused: {{.*}}: ok
// HOST: run_check: result0 float32[{{.*}}] matches numpy

// Each is one matmul kernel, mapped as tiles.
// MAPPING-LABEL: func.func @at_b
// MAPPING: kf.kernel "matmul_{{[0-9]+}}" kind matmul mapping matmul
// MAPPING-NOT: kf.kernel
// MAPPING-LABEL: func.func @linear_relu
// MAPPING: kf.kernel "matmul_add_relu_{{[0-9]+}}" kind matmul mapping matmul
// MAPPING-NOT: kf.kernel
// MAPPING-LABEL: func.func @at_wt
// MAPPING: kf.kernel "matmul_{{[0-9]+}}" kind matmul mapping matmul
// MAPPING-NOT: kf.kernel
// MAPPING-LABEL: func.func @half

// A is stored [k, m]: thread (ty, tx) reads A[k0 + ty, m0 + tx] (along m,
// A's contiguous dim) and writes it to aTile[tx][ty]; B as it is: B[k0 +
// ty, n0 + tx] to bTile[ty][tx]. The multiply-adds read the tiles as in the
// plain case.
// LAUNCH-LABEL: gpu.func @matmul_0(
// LAUNCH-SAME: %[[A:[a-z0-9]+]]: memref<50x37xf32>, %[[B:[a-z0-9]+]]: memref<50x23xf32>
// LAUNCH-SAME: workgroup(%[[AT:.*]] : memref<16x17xf32, #gpu.address_space<workgroup>>, %[[BT:.*]] : memref<16x16xf32, #gpu.address_space<workgroup>>)
// LAUNCH: %[[BY:.*]] = gpu.block_id y
// LAUNCH: %[[TX:.*]] = gpu.thread_id x
// LAUNCH: %[[TY:.*]] = gpu.thread_id y
// LAUNCH: %[[M0:.*]] = arith.muli %[[BY]], %{{.*}} : index
// LAUNCH: scf.for
// LAUNCH: %[[K0:.*]] = arith.muli
// LAUNCH: %[[I:.*]] = arith.addi %[[M0]], %[[TX]] : index
// LAUNCH: %[[K:.*]] = arith.addi %[[K0]], %[[TY]] : index
// LAUNCH: memref.load %[[A]][%[[K]], %[[I]]] : memref<50x37xf32>
// LAUNCH: memref.store %{{.*}}, %[[AT]][%[[TX]], %[[TY]]]
// LAUNCH: memref.load %[[B]][%{{.*}}, %{{.*}}] : memref<50x23xf32>
// LAUNCH: memref.store %{{.*}}, %[[BT]][%[[TY]], %[[TX]]]
// LAUNCH: gpu.barrier
// LAUNCH: memref.load %[[AT]][%[[TY]], %{{.*}}]
// LAUNCH: memref.load %[[BT]][%{{.*}}, %[[TX]]]
// LAUNCH: gpu.return
func.func @at_b(%a: tensor<50x37xf32>, %b: tensor<50x23xf32>) -> tensor<37x23xf32> {
  %t = kf.transpose %a [1, 0] : tensor<50x37xf32>
  %0 = kf.matmul %t, %b : tensor<37x50xf32>, tensor<50x23xf32>
  return %0 : tensor<37x23xf32>
}

// A linear layer, x @ w.t() + b then relu: B is stored [n, k]: thread (ty,
// tx) reads W[n0 + ty, k0 + tx] (along k) and writes bTile[tx][ty]; the
// epilogue as before.
// LAUNCH-LABEL: gpu.func @matmul_add_relu_1(
// LAUNCH-SAME: %[[X:[a-z0-9]+]]: memref<37x50xf32>, %[[W:[a-z0-9]+]]: memref<23x50xf32>
// LAUNCH-SAME: workgroup(%[[XT:.*]] : memref<16x16xf32, #gpu.address_space<workgroup>>, %[[WT:.*]] : memref<16x17xf32, #gpu.address_space<workgroup>>)
// LAUNCH: %[[BX:.*]] = gpu.block_id x
// LAUNCH: %[[TX:.*]] = gpu.thread_id x
// LAUNCH: %[[TY:.*]] = gpu.thread_id y
// LAUNCH: %[[N0:.*]] = arith.muli %[[BX]], %{{.*}} : index
// LAUNCH: memref.store %{{.*}}, %[[XT]][%[[TY]], %[[TX]]]
// LAUNCH: %[[K:.*]] = arith.addi %{{.*}}, %[[TX]] : index
// LAUNCH: %[[J:.*]] = arith.addi %[[N0]], %[[TY]] : index
// LAUNCH: memref.load %[[W]][%[[J]], %[[K]]] : memref<23x50xf32>
// LAUNCH: memref.store %{{.*}}, %[[WT]][%[[TX]], %[[TY]]]
// LAUNCH: arith.cmpf olt
// LAUNCH: arith.select
// LAUNCH: gpu.return
func.func @linear_relu(%x: tensor<37x50xf32>, %w: tensor<23x50xf32>, %b: tensor<23xf32>) -> tensor<37x23xf32> {
  %t = kf.transpose %w [1, 0] : tensor<23x50xf32>
  %h = kf.matmul %x, %t : tensor<37x50xf32>, tensor<50x23xf32>
  %y = kf.add %h, %b : tensor<37x23xf32>, tensor<23xf32>
  %r = kf.relu %y : tensor<37x23xf32>
  return %r : tensor<37x23xf32>
}

// Both transposed: both tiles padded.
// LAUNCH-LABEL: gpu.func @matmul_2(
// LAUNCH-SAME: workgroup(%{{.*}} : memref<16x17xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x17xf32, #gpu.address_space<workgroup>>)
func.func @at_wt(%a: tensor<50x37xf32>, %w: tensor<23x50xf32>) -> tensor<37x23xf32> {
  %ta = kf.transpose %a [1, 0] : tensor<50x37xf32>
  %tw = kf.transpose %w [1, 0] : tensor<23x50xf32>
  %0 = kf.matmul %ta, %tw : tensor<37x50xf32>, tensor<50x23xf32>
  return %0 : tensor<37x23xf32>
}

// f16 operands (one transposed) accumulate in f32, rounded by the finishing
// op in the same kernel.
func.func @half(%a: tensor<20x17xf16>, %b: tensor<20x9xf16>) -> tensor<17x9xf16> {
  %t = kf.transpose %a [1, 0] : tensor<20x17xf16>
  %0 = kf.matmul %t, %b : tensor<17x20xf16>, tensor<20x9xf16>
  return %0 : tensor<17x9xf16>
}

// Dynamic sizes (37 each): the tile loops and edges from the arguments'
// dims.
func.func @dynamic(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %t = kf.transpose %w [1, 0] : tensor<?x?xf32>
  %0 = kf.matmul %x, %t : tensor<?x?xf32>, tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// A transpose also returned stays a kernel of its own (the flat copy); the
// matmul still reads %a in place.
// MAPPING-LABEL: func.func @returned_too
// MAPPING-DAG: kf.kernel "{{[a-z_]*}}transpose_{{[0-9]+}}" kind {{.*}} mapping flat
// MAPPING-DAG: kf.kernel "matmul_{{[0-9]+}}" kind matmul mapping matmul
func.func @returned_too(%a: tensor<20x17xf32>, %b: tensor<20x9xf32>) -> (tensor<17x9xf32>, tensor<17x20xf32>) {
  %t = kf.transpose %a [1, 0] : tensor<20x17xf32>
  %0 = kf.matmul %t, %b : tensor<17x20xf32>, tensor<20x9xf32>
  return %0, %t : tensor<17x9xf32>, tensor<17x20xf32>
}
