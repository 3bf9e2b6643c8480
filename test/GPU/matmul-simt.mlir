// The register-tiled SIMT matmul (MatmulSimt.cpp): a 16x16 block per 64x64
// tile, each thread a 4x4 micro-tile of accumulators, A and B staged in
// shared memory as vectors of 4 (A transposed there), 16 steps of K
// unrolled a stage: two 128-bit shared-memory loads feed 16 FMAs.
//
// The PTX of a 256x256x256 f32 matmul + bias + relu: per stage 32
// ld.shared.v4 and 256 fma.rn.f32 (8 FMAs a shared-memory load; the 16x16
// reference does one FMA per two scalar loads), counted by matmul-simt.mlir.py.
// RUN: kfuse-compile %s --emit=ptx --gpu-chip=sm_90 -o %t.ptx
// RUN: %python %s.py %t.ptx matmul_add_relu_0 | FileCheck %s --check-prefix=RATIO
// RATIO: matmul_add_relu_0: 256 fma.rn.f32, 32 ld.shared.v4, 0 scalar ld.shared, 8.0 FMAs a shared-memory load
//
// ptxas accepts every kernel of this file and of the other matmul tests,
// for sm_80 and sm_90, with no spills (f32, f16, bf16, f64, integers,
// batched, transposed).
// RUN: %if ptxas %{ rm -f %t.report %}
// RUN: %if ptxas %{ for chip in sm_80 sm_90; do \
// RUN:   for f in %s %S/matmul-batched.mlir %S/matmul-transposed.mlir; do \
// RUN:     kfuse-compile $f --emit=ptx --gpu-chip=$chip -o %t.$chip.ptx || exit 1; \
// RUN:     %ptxas -v -arch=$chip %t.$chip.ptx -o %t.cubin 2>> %t.report || exit 1; \
// RUN:   done; done %}
// RUN: %if ptxas %{ grep "spill" %t.report | not grep -v " 0 bytes spill stores, 0 bytes spill loads" %}
//
// The numbers: each function through the GPU mapping run on the host
// (kf-emulate-gpu-launches), blocks in order and reversed, against the CPU
// pipeline: sizes on and off the 64x64 tiles and the 16-step K (1, 15, 17,
// 63, 65, 100, dynamic), an epilogue, f16/bf16 (f32 accumulation, one
// rounding), f64 and i32.
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-reversed-pipeline %s
// DIMS: 65

func.func @linear_relu(%x: tensor<256x256xf32>, %w: tensor<256x256xf32>, %b: tensor<256xf32>) -> tensor<256x256xf32> {
  %h = kf.matmul %x, %w : tensor<256x256xf32>, tensor<256x256xf32>
  %y = kf.add %h, %b : tensor<256x256xf32>, tensor<256xf32>
  %r = kf.relu %y : tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

func.func @one(%a: tensor<1x1xf32>, %b: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %c = kf.matmul %a, %b : tensor<1x1xf32>, tensor<1x1xf32>
  return %c : tensor<1x1xf32>
}

func.func @ragged(%a: tensor<65x17xf32>, %b: tensor<17x63xf32>) -> tensor<65x63xf32> {
  %c = kf.matmul %a, %b : tensor<65x17xf32>, tensor<17x63xf32>
  return %c : tensor<65x63xf32>
}

func.func @k_one(%a: tensor<15x1xf32>, %b: tensor<1x100xf32>) -> tensor<15x100xf32> {
  %c = kf.matmul %a, %b : tensor<15x1xf32>, tensor<1x100xf32>
  return %c : tensor<15x100xf32>
}

// The matmul's own result also returned: stored as well as the epilogue's.
func.func @both_returned(%a: tensor<100x15xf32>, %b: tensor<15x65xf32>, %bias: tensor<65xf32>) -> (tensor<100x65xf32>, tensor<100x65xf32>) {
  %h = kf.matmul %a, %b : tensor<100x15xf32>, tensor<15x65xf32>
  %y = kf.add %h, %bias : tensor<100x65xf32>, tensor<65xf32>
  %r = kf.relu %y : tensor<100x65xf32>
  return %h, %r : tensor<100x65xf32>, tensor<100x65xf32>
}

func.func @dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %bias: tensor<?xf32>) -> tensor<?x?xf32> {
  %h = kf.matmul %a, %b : tensor<?x?xf32>, tensor<?x?xf32>
  %y = kf.add %h, %bias : tensor<?x?xf32>, tensor<?xf32>
  %r = kf.relu %y : tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @half(%a: tensor<100x40xf16>, %b: tensor<40x72xf16>, %bias: tensor<72xf16>) -> tensor<100x72xf16> {
  %h = kf.matmul %a, %b : tensor<100x40xf16>, tensor<40x72xf16>
  %y = kf.add %h, %bias : tensor<100x72xf16>, tensor<72xf16>
  %r = kf.relu %y : tensor<100x72xf16>
  return %r : tensor<100x72xf16>
}

func.func @bf16(%a: tensor<63x33xbf16>, %b: tensor<33x17xbf16>) -> tensor<63x17xbf16> {
  %c = kf.matmul %a, %b : tensor<63x33xbf16>, tensor<33x17xbf16>
  return %c : tensor<63x17xbf16>
}

func.func @f64(%a: tensor<17x20xf64>, %b: tensor<20x65xf64>) -> tensor<17x65xf64> {
  %c = kf.matmul %a, %b : tensor<17x20xf64>, tensor<20x65xf64>
  return %c : tensor<17x65xf64>
}

func.func @i32(%a: tensor<17x20xi32>, %b: tensor<20x65xi32>) -> tensor<17x65xi32> {
  %c = kf.matmul %a, %b : tensor<17x20xi32>, tensor<20x65xi32>
  return %c : tensor<17x65xi32>
}
