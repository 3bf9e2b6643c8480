// The numbers of the tensor-core matmul (MatmulTensorCore.cpp), without a
// GPU: kf-gpu-emulation-sm80-pipeline maps the kernels for sm_80, rewrites
// ldmatrix, mma.sync and cp.async into per-lane code that exchanges
// addresses and fragments through shuffles as the PTX ISA lays them out
// (kf-expand-warp-matrix-ops), and runs the launches on the host. Checked
// against the CPU pipeline (f32 accumulation, one rounding: the inputs'
// products and sums are exact in f32, so the results agree exactly), and
// against the same program in f32 (--half-reference: the tolerance covers
// the result's rounding to f16 or bf16).
// Shapes on and off the 64x64 tiles and the 32-step K of the table's tiles (64x64x64,
// 128x96x80, 67x45x33, batched 3x65x70x40, a broadcast B, dynamic sizes),
// A or B read transposed in place, an epilogue (bias, relu); copies by
// cp.async where each operand's contiguous dim is a multiple of 8, by
// guarded loads otherwise.
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-sm80-pipeline %s
// RUN: %fusion-diff --half-reference --rtol=1e-2 --atol=1e-2 --candidate=--kf-gpu-emulation-sm80-pipeline %s
// Other tiles (#kf.matmul_tiles, MatmulTiles.cpp) give the same numbers:
// 128 x 64 x 64 blocks over 4 x 2 warps (256 threads), 3 stages, groups of
// 2 rows of tiles: operands of different tile sizes, a stage count that
// is no power of two, the steps past K, groups cut short at the edge.
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-sm80-pipeline=matmul-tiles=128x64x64/4x2/3/2 %s
// The rewrite is what runs: no nvgpu or NVVM op is left, the lanes
// exchange registers by shuffles (32 a mma.sync).
// RUN: kfuse-opt %s --kf-gpu-emulation-sm80-pipeline --mlir-print-ir-before=kf-emulate-gpu-launches -o /dev/null 2>&1 | FileCheck %s
// RUN: kfuse-opt %s --kf-gpu-emulation-sm80-pipeline --mlir-print-ir-before=kf-emulate-gpu-launches -o /dev/null 2>&1 | not grep -E "nvgpu[.]|nvvm[.]"
// CHECK-LABEL: func.func @square
// CHECK-NOT: nvgpu.
// CHECK-NOT: nvvm.
// CHECK: gpu.shuffle {{ *}}idx
// DIMS @dynamic: 72 40 40 56 56

func.func @square(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %c = kf.matmul %a, %b : tensor<64x64xf16>, tensor<64x64xf16>
  return %c : tensor<64x64xf16>
}

func.func @tiles(%a: tensor<128x80xf16>, %b: tensor<80x96xf16>) -> tensor<128x96xf16> {
  %c = kf.matmul %a, %b : tensor<128x80xf16>, tensor<80x96xf16>
  return %c : tensor<128x96xf16>
}

// Unaligned rows (33 and 45 elements): guarded loads.
func.func @ragged_bf16(%a: tensor<67x33xbf16>, %b: tensor<33x45xbf16>) -> tensor<67x45xbf16> {
  %c = kf.matmul %a, %b : tensor<67x33xbf16>, tensor<33x45xbf16>
  return %c : tensor<67x45xbf16>
}

func.func @batched(%a: tensor<3x65x40xf16>, %b: tensor<3x40x70xf16>) -> tensor<3x65x70xf16> {
  %c = kf.matmul %a, %b : tensor<3x65x40xf16>, tensor<3x40x70xf16>
  return %c : tensor<3x65x70xf16>
}

// One B for every batch (read in place for each).
func.func @broadcast_b(%a: tensor<2x33x48xf16>, %b: tensor<48x40xf16>) -> tensor<2x33x40xf16> {
  %c = kf.matmul %a, %b : tensor<2x33x48xf16>, tensor<48x40xf16>
  return %c : tensor<2x33x40xf16>
}

// x @ w.t() + bias, relu: w [n][k] staged as it is, read by ldmatrix
// without .trans; the epilogue on the accumulators.
func.func @linear_relu(%x: tensor<70x48xbf16>, %w: tensor<72x48xbf16>, %bias: tensor<72xbf16>) -> tensor<70x72xbf16> {
  %t = kf.transpose %w [1, 0] : tensor<72x48xbf16>
  %h = kf.matmul %x, %t : tensor<70x48xbf16>, tensor<48x72xbf16>
  %y = kf.add %h, %bias : tensor<70x72xbf16>, tensor<72xbf16>
  %r = kf.relu %y : tensor<70x72xbf16>
  return %r : tensor<70x72xbf16>
}

// a.t() @ b: A [k][m] staged as it is, read by ldmatrix.trans.
func.func @at_b(%a: tensor<40x56xf16>, %b: tensor<40x24xf16>) -> tensor<56x24xf16> {
  %t = kf.transpose %a [1, 0] : tensor<40x56xf16>
  %c = kf.matmul %t, %b : tensor<56x40xf16>, tensor<40x24xf16>
  return %c : tensor<56x24xf16>
}

// Sizes known at run time (72x40 @ 40x56: cp.async), with a bias.
func.func @dynamic(%a: tensor<?x?xf16>, %b: tensor<?x?xf16>, %bias: tensor<?xf16>) -> tensor<?x?xf16> {
  %h = kf.matmul %a, %b : tensor<?x?xf16>, tensor<?x?xf16>
  %y = kf.add %h, %bias : tensor<?x?xf16>, tensor<?xf16>
  return %y : tensor<?x?xf16>
}
