// Matmul kernels reading a transposed operand in place (`a.t() @ b`,
// `x @ w.t()`, both): the tile mapping stages each tile so that the global
// reads stay coalesced for either layout (consecutive threads read
// consecutive elements of the stored operand's last dim, or each thread
// four neighbours of it) and writes the tile to shared memory in one
// layout whatever the operand's, its rows padded by a vector (no bank
// conflicts on the staging writes).
// Executed three ways: the GPU mapping (and the 16x16 reference kernel)
// emulated on the host against the CPU pipeline (sizes cut by the tile
// edges, an epilogue, f16, dynamic sizes), the host mapping through
// kfuse-run against numpy, and the PTX through ptxas where it is installed.
// RUN: kfuse-compile %s --emit=gpu | FileCheck %s --check-prefix=LAUNCH
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings | FileCheck %s --check-prefix=MAPPING
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline --reference=--kf-cpu-pipeline=fusion=on %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-reference-pipeline %s
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

// The default kernel (MatmulSimt.cpp) stages A in shared memory as
// aTile[k][m / 4], 4 neighbours along m a vector, and B as bTile[k][n / 4].
// A is stored [k, m]: thread tid = 16 ty + tx reads A[k0 + tid / 16, m0 +
// 4 (tid % 16) + j] (four neighbours along m, A's contiguous dim) and writes
// them as one vector to aTile[tid / 16][tid % 16]; B as it is, the same way
// round. The multiply-adds read aTile[k][ty] and bTile[k][tx] as in the
// plain case.
// LAUNCH-LABEL: gpu.func @matmul_0(
// LAUNCH-SAME: %[[A:[a-z0-9]+]]: memref<50x37xf32>, %[[B:[a-z0-9]+]]: memref<50x23xf32>
// LAUNCH-SAME: workgroup(%[[AT:.*]] : memref<16x17xvector<4xf32>, #gpu.address_space<workgroup>>, %[[BT:.*]] : memref<16x17xvector<4xf32>, #gpu.address_space<workgroup>>)
// LAUNCH: %[[BY:.*]] = gpu.block_id y
// LAUNCH: %[[TX:.*]] = gpu.thread_id x
// LAUNCH: %[[TY:.*]] = gpu.thread_id y
// LAUNCH: %[[M0:.*]] = arith.muli %[[BY]], %{{.*}} : index
// LAUNCH: %[[TID:.*]] = arith.addi %{{.*}}, %[[TX]] : index
// LAUNCH: %[[HI:.*]] = arith.divui %[[TID]], %{{.*}} : index
// LAUNCH: %[[LO:.*]] = arith.remui %[[TID]], %{{.*}} : index
// LAUNCH: scf.for
// LAUNCH: %[[K0:.*]] = arith.muli
// LAUNCH: %[[K:.*]] = arith.addi %[[K0]], %[[HI]] : index
// LAUNCH: %[[G:.*]] = arith.muli %[[LO]], %{{.*}} : index
// LAUNCH: %[[I:.*]] = arith.addi %[[M0]], %[[G]] : index
// LAUNCH: %[[I0:.*]] = arith.addi %[[I]], %{{.*}} : index
// LAUNCH: memref.load %[[A]][%[[K]], %[[I0]]] : memref<50x37xf32>
// LAUNCH: vector.from_elements
// LAUNCH: memref.store %{{.*}}, %[[AT]][%[[HI]], %[[LO]]]
// LAUNCH: memref.load %[[B]][%{{.*}}, %{{.*}}] : memref<50x23xf32>
// LAUNCH: memref.store %{{.*}}, %[[BT]][%[[HI]], %[[LO]]]
// LAUNCH: gpu.barrier
// LAUNCH: memref.load %[[AT]][%{{.*}}, %[[TY]]]
// LAUNCH: memref.load %[[BT]][%{{.*}}, %[[TX]]]
// LAUNCH: gpu.return
func.func @at_b(%a: tensor<50x37xf32>, %b: tensor<50x23xf32>) -> tensor<37x23xf32> {
  %t = kf.transpose %a [1, 0] : tensor<50x37xf32>
  %0 = kf.matmul %t, %b : tensor<37x50xf32>, tensor<50x23xf32>
  return %0 : tensor<37x23xf32>
}

// A linear layer, x @ w.t() + b then relu: B is stored [n, k]: thread tid
// reads W[n0 + 4 (tid / 16) + j, k0 + tid % 16] (16 threads along k) and
// writes bTile[tid % 16][tid / 16]; the epilogue as before.
// LAUNCH-LABEL: gpu.func @matmul_add_relu_1(
// LAUNCH-SAME: %[[X:[a-z0-9]+]]: memref<37x50xf32>, %[[W:[a-z0-9]+]]: memref<23x50xf32>
// LAUNCH-SAME: workgroup(%[[XT:.*]] : memref<16x17xvector<4xf32>, #gpu.address_space<workgroup>>, %[[WT:.*]] : memref<16x17xvector<4xf32>, #gpu.address_space<workgroup>>)
// LAUNCH: %[[BX:.*]] = gpu.block_id x
// LAUNCH: %[[N0:.*]] = arith.muli %[[BX]], %{{.*}} : index
// LAUNCH: %[[TID:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// LAUNCH: %[[HI:.*]] = arith.divui %[[TID]], %{{.*}} : index
// LAUNCH: %[[LO:.*]] = arith.remui %[[TID]], %{{.*}} : index
// LAUNCH: memref.store %{{.*}}, %[[XT]][%[[LO]], %[[HI]]]
// LAUNCH: %[[K:.*]] = arith.addi %{{.*}}, %[[LO]] : index
// LAUNCH: %[[G:.*]] = arith.muli %[[HI]], %{{.*}} : index
// LAUNCH: %[[J:.*]] = arith.addi %[[N0]], %[[G]] : index
// LAUNCH: %[[J0:.*]] = arith.addi %[[J]], %{{.*}} : index
// LAUNCH: memref.load %[[W]][%[[J0]], %[[K]]] : memref<23x50xf32>
// LAUNCH: memref.store %{{.*}}, %[[WT]][%[[LO]], %[[HI]]]
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

// Both transposed: A staged the way B is in @at_b, and B the way A is in
// @linear_relu's plain case.
// LAUNCH-LABEL: gpu.func @matmul_2(
// LAUNCH: %[[TID:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// LAUNCH: %[[HI:.*]] = arith.divui %[[TID]], %{{.*}} : index
// LAUNCH: %[[LO:.*]] = arith.remui %[[TID]], %{{.*}} : index
// LAUNCH: memref.store %{{.*}}, %{{.*}}[%[[HI]], %[[LO]]]
// LAUNCH: memref.store %{{.*}}, %{{.*}}[%[[LO]], %[[HI]]]
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
