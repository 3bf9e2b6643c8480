// Host matmul kernels (passes/host/mappings/HostMatmul.cpp: 6x16 register tiles of
// vector FMAs, B packed in panels of K = 256, blocks of 288x128 of C) run
// by kfuse-run on the CPU and compared with numpy (and with the unfused
// program, --check): sizes that are not multiples of the register tile or
// the blocks, dynamic M, operands read transposed in place, epilogues over
// (i, j), (j) and (i), a scalar epilogue, f16 and bf16 (widened to f32 as
// they are packed) and i32 (the simple per-element mapping).
// Sums over K >= 300 are compared with a float64 reference at an absolute
// tolerance of 1e-4 (float32 sums of O(1) products drift by about
// sqrt(K) * 1e-7 * |terms|; the default 1e-5 fits K < 100).
//
// Sizes below one register tile, and one tile and a bit (65 = 10 x 6 + 5
// rows, 129 = 8 x 16 + 1 columns).
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[1x1]" --input "arg1=f32[1x1]" \
// RUN:   --expect "arg0 @ arg1" -- --entry=mm --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=ONE
// ONE: check against the CPU, unfused: {{.*}}: ok
// ONE: run_check: result0 float32[1, 1] matches numpy
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[7x5]" --input "arg1=f32[5x13]" \
// RUN:   --expect "arg0 @ arg1" -- --entry=mm --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=SMALL
// SMALL: run_check: result0 float32[7, 13] matches numpy
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[65x33]" --input "arg1=f32[33x129]" \
// RUN:   --expect "arg0 @ arg1" -- --entry=mm --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=EDGES
// EDGES: run_check: result0 float32[65, 129] matches numpy
// Several blocks each way (300 rows: 288 + 12; 300 columns: 2 x 128 + 44)
// and three panels of K (600 = 2 x 256 + 88).
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[300x600]" --input "arg1=f32[600x300]" \
// RUN:   --atol 1e-4 --expect "(arg0.astype(np.float64) @ arg1).astype(np.float32)" \
// RUN:   -- --entry=mm --device=cpu --repeat=1 | FileCheck %s --check-prefix=BLOCKS
// BLOCKS: run_check: result0 float32[300, 300] matches numpy
// K = 0: the fill (zeros).
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[5x0]" --input "arg1=f32[0x3]" \
// RUN:   --expect "np.zeros((5, 3), np.float32)" -- --entry=mm --device=cpu --repeat=1 | FileCheck %s --check-prefix=EMPTY-K
// EMPTY-K: run_check: result0 float32[5, 3] matches numpy
//
// Dynamic M, bias over (j), relu (the MLP's first layer).
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[37x50]" --input "arg1=f32[50x23]" \
// RUN:   --input "arg2=f32[23]" --expect "np.maximum(arg0 @ arg1 + arg2, 0)" \
// RUN:   -- --entry=linear_relu --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=LINEAR
// LINEAR: check against the CPU, unfused: {{.*}}: ok
// LINEAR: run_check: result0 float32[37, 23] matches numpy
// a.t() @ b with a bias over (i).
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[300x20]" --input "arg1=f32[300x40]" \
// RUN:   --input "arg2=f32[20x1]" --atol 1e-4 \
// RUN:   --expect "(arg0.T.astype(np.float64) @ arg1 + arg2).astype(np.float32)" \
// RUN:   -- --entry=at_b_col --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=AT-B
// AT-B: check against the CPU, unfused: {{.*}}: ok
// AT-B: run_check: result0 float32[20, 40] matches numpy
// x @ w.t() + b, relu, + a residual over (i, j).
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[77x600]" --input "arg1=f32[133x600]" \
// RUN:   --input "arg2=f32[133]" --input "arg3=f32[77x133]" --atol 1e-4 \
// RUN:   --expect "(np.maximum(arg0.astype(np.float64) @ arg1.T + arg2, 0) + arg3).astype(np.float32)" \
// RUN:   -- --entry=x_wt_residual --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=X-WT
// X-WT: check against the CPU, unfused: {{.*}}: ok
// X-WT: run_check: result0 float32[77, 133] matches numpy
// The matmul's result returned as well as the epilogue's (tanh).
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[9x17]" --input "arg1=f32[17x19]" \
// RUN:   --expect "arg0 @ arg1" --expect "np.tanh(arg0 @ arg1)" \
// RUN:   -- --entry=both --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=BOTH
// BOTH: run_check: result0 float32[9, 19] matches numpy
// BOTH: run_check: result1 float32[9, 19] matches numpy
// A residual read at (j, i): the epilogue element by element.
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[21x10]" --input "arg1=f32[10x21]" \
// RUN:   --input "arg2=f32[21x21]" --expect "arg0 @ arg1 + arg2.T" \
// RUN:   -- --entry=residual_t --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=SCALAR
// SCALAR: run_check: result0 float32[21, 21] matches numpy
// f16 (accumulated in f32, rounded once), also with A transposed, bf16
// (against the unfused run: numpy has no bf16), and i32.
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f16[17x20]" --input "arg1=f16[20x9]" \
// RUN:   --expect "(arg0.astype(np.float32) @ arg1.astype(np.float32)).astype(np.float16)" \
// RUN:   -- --entry=half --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=HALF
// HALF: run_check: result0 float16[17, 9] matches numpy
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f16[20x17]" --input "arg1=f16[20x9]" \
// RUN:   --expect "(arg0.T.astype(np.float32) @ arg1.astype(np.float32)).astype(np.float16)" \
// RUN:   -- --entry=half_at --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=HALF-AT
// HALF-AT: run_check: result0 float16[17, 9] matches numpy
// RUN: kfuse-run %S/Inputs/host-matmul.mlir --entry=brain --device=cpu --repeat=0 --check \
// RUN:   | FileCheck %s --check-prefix=BF16
// BF16: check against the CPU, unfused: {{.*}}: ok
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=i32[7x13]" --input "arg1=i32[13x5]" \
// RUN:   --input "arg2=i32[5]" --expect "arg0 @ arg1 + arg2" \
// RUN:   -- --entry=int --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=INT
// INT: run_check: result0 int32[7, 5] matches numpy (max abs error 0, max rel error 0)
//
// Batched matmuls on the same kernel, a batch index a grid z block:
// scores over two batch dims (77 query rows: a block and a bit of register
// tiles; 21 keys, masked at N), a weight broadcast over the batch (K = 300:
// two panels), a batch dim of 1 broadcast to 3, a dynamic batch at 3 and
// at 0 (no block computes), f16 with A read transposed.
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[2x3x77x40]" --input "arg1=f32[2x3x21x40]" \
// RUN:   --input "arg2=f32[21]" --expect "arg0 @ np.swapaxes(arg1, -1, -2) * 0.125 + arg2" \
// RUN:   -- --entry=scores --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=SCORES
// SCORES: check against the CPU, unfused: {{.*}}: ok
// SCORES: run_check: result0 float32[2, 3, 77, 21] matches numpy
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[4x13x300]" --input "arg1=f32[300x30]" \
// RUN:   --atol 1e-4 --expect "(arg0.astype(np.float64) @ arg1).astype(np.float32)" \
// RUN:   -- --entry=batch_weight --device=cpu --repeat=1 | FileCheck %s --check-prefix=BATCH-W
// BATCH-W: run_check: result0 float32[4, 13, 30] matches numpy
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[1x5x7]" --input "arg1=f32[3x7x9]" \
// RUN:   --expect "arg0 @ arg1" -- --entry=batch_one --device=cpu --repeat=1 | FileCheck %s --check-prefix=BATCH-1
// BATCH-1: run_check: result0 float32[3, 5, 9] matches numpy
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[3x6x7]" --input "arg1=f32[3x7x17]" \
// RUN:   --expect "arg0 @ arg1" -- --entry=batch_dynamic --device=cpu --repeat=1 | FileCheck %s --check-prefix=BATCH-DYN
// BATCH-DYN: run_check: result0 float32[3, 6, 17] matches numpy
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[0x6x7]" --input "arg1=f32[0x7x17]" \
// RUN:   --expect "np.zeros((0, 6, 17), np.float32)" -- --entry=batch_dynamic --device=cpu --repeat=1 | FileCheck %s --check-prefix=BATCH-0
// BATCH-0: run_check: result0 float32[0, 6, 17] matches numpy
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f16[2x20x17]" --input "arg1=f16[2x20x9]" \
// RUN:   --expect "(np.swapaxes(arg0, 1, 2).astype(np.float32) @ arg1.astype(np.float32)).astype(np.float16)" \
// RUN:   -- --entry=batch_half --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=BATCH-HALF
// BATCH-HALF: run_check: result0 float16[2, 17, 9] matches numpy
// A bool mask read by the epilogue, 2-D and batched (wrong before: a
// vector<8xi1> load reads 8 bits of an i1 buffer that holds a byte each).
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[9x17]" --input "arg1=f32[17x19]" \
// RUN:   --input "arg2=i1[9x19]" --expect "np.where(arg2, arg0 @ arg1, np.float32(-1))" \
// RUN:   -- --entry=masked --device=cpu --repeat=1 | FileCheck %s --check-prefix=MASKED
// MASKED: run_check: result0 float32[9, 19] matches numpy
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[3x9x17]" --input "arg1=f32[3x17x19]" \
// RUN:   --input "arg2=i1[9x19]" --expect "np.where(arg2, arg0 @ arg1, np.float32(-1))" \
// RUN:   -- --entry=batch_masked --device=cpu --repeat=1 | FileCheck %s --check-prefix=BATCH-MASKED
// BATCH-MASKED: run_check: result0 float32[3, 9, 19] matches numpy
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[3x9x17]" --input "arg1=f32[3x17x19]" \
// RUN:   --expect "np.where(np.tril(np.ones((9, 19), bool), 10), arg0 @ arg1, np.float32(-1))" \
// RUN:   -- --entry=batch_causal --device=cpu --repeat=1 | FileCheck %s --check-prefix=BATCH-CAUSAL
// BATCH-CAUSAL: run_check: result0 float32[3, 9, 19] matches numpy
// The constant mask's bytes, read as vectors by the epilogue on the tile's
// rows (an i1 argument, as @masked's, stays element by element):
// RUN: kfuse-opt %S/Inputs/host-matmul.mlir --kf-host-runtime-pipeline \
// RUN:   --mlir-print-ir-after=kf-map-kernels-to-host -o /dev/null 2>&1 | FileCheck %s --check-prefix=CAUSAL-IR
// CAUSAL-IR: memref.global "private" constant @[[BYTES:.*]] : memref<9x19xi8> = dense<"0x0101
// CAUSAL-IR-LABEL: func.func @batch_causal
// CAUSAL-IR: %[[M:.*]] = memref.get_global @[[BYTES]] : memref<9x19xi8>
// CAUSAL-IR-NOT: memref.get_global @[[BYTES]]
// CAUSAL-IR: gpu.launch
// CAUSAL-IR: %[[V:.*]] = vector.load %[[M]][%{{.*}}, %{{.*}}] : memref<9x19xi8>, vector<16xi8>
// CAUSAL-IR: %[[C:.*]] = arith.cmpi ne, %[[V]], %{{.*}} : vector<16xi8>
// CAUSAL-IR: arith.select %[[C]], %{{.*}}, %{{.*}} : vector<16xi1>, vector<16xf32>
// CAUSAL-IR: gpu.terminator
// x @ w.t() at sizes that give the launch narrow blocks (256 x 64: 4
// blocks of 16 columns), narrow and short ones (100 x 45: 3 of 16
// columns, N = 45 masked, then 2 of 54 rows), one block (5 x 3) and the
// default's 3 x 3 (700 x 300, evened to 234 x 112), K = 37 (four 8 x 8
// squares and a tail of 5); bf16 weights.
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[256x37]" --input "arg1=f32[64x37]" \
// RUN:   --expect "arg0 @ arg1.T" -- --entry=x_wt_dyn --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=WT-NARROW
// WT-NARROW: run_check: result0 float32[256, 64] matches numpy
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[100x37]" --input "arg1=f32[45x37]" \
// RUN:   --expect "arg0 @ arg1.T" -- --entry=x_wt_dyn --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=WT-SHORT
// WT-SHORT: run_check: result0 float32[100, 45] matches numpy
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[5x37]" --input "arg1=f32[3x37]" \
// RUN:   --expect "arg0 @ arg1.T" -- --entry=x_wt_dyn --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=WT-ONE
// WT-ONE: run_check: result0 float32[5, 3] matches numpy
// RUN: %run-check %S/Inputs/host-matmul.mlir --input "arg0=f32[700x37]" --input "arg1=f32[300x37]" \
// RUN:   --expect "arg0 @ arg1.T" -- --entry=x_wt_dyn --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=WT-MANY
// WT-MANY: run_check: result0 float32[700, 300] matches numpy
// RUN: kfuse-run %S/Inputs/host-matmul.mlir --entry=x_wt_brain --dim d0=100 --device=cpu --repeat=0 --check \
// RUN:   | FileCheck %s --check-prefix=WT-BF16
// WT-BF16: check against the CPU, unfused: {{.*}}: ok
func.func private @none()
