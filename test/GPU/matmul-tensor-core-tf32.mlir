// TF32 (kf-map-kernels-to-gpu's `tf32`, kfuse-compile --tf32; off by
// default, as PyTorch's allow_tf32 for matmuls): with a chip from sm_80,
// f32 matmuls take the tensor-core kernel too, mma.sync.m16n8k8 on tf32.
// Its fragments are one f32 a register: ldmatrix (b16 matrices of 8 rows
// of 4 f32) for an operand stored with K contiguous, one ld.shared an
// element for one stored [k][mn] (ldmatrix .trans is for 16-bit elements
// only); cp.async copies 4 f32 a chunk.
// RUN: kfuse-compile %s --emit=ptx --gpu-chip=sm_80 --tf32 | FileCheck %s --check-prefix=PTX
// RUN: kfuse-compile %s --emit=ptx --gpu-chip=sm_80 | FileCheck %s --check-prefix=OFF
// TF32 changes results, so what was compiled says so: kernels.json and
// the library's manifest record it (false without --tf32).
// RUN: rm -rf %t.dump %t.dump-off
// RUN: kfuse-compile %s --gpu-chip=sm_80 --tf32 --dump-dir=%t.dump -o %t.dump.ptx
// RUN: FileCheck %s --check-prefix=JSON-ON < %t.dump/kernels.json
// RUN: kfuse-compile %s --gpu-chip=sm_80 --dump-dir=%t.dump-off -o %t.dump-off.ptx
// RUN: FileCheck %s --check-prefix=JSON-OFF < %t.dump-off/kernels.json
// RUN: kfuse-compile %s --gpu-chip=sm_80 --tf32 --emit=lib -o %t.so
// RUN: grep -ao "\"tf32\": true" %t.so | FileCheck %s --check-prefix=JSON-ON
// JSON-ON: "tf32": true
// JSON-OFF: "tf32": false
// The numbers: through kf-gpu-emulation-sm80-tf32-pipeline (the mma.sync
// of tf32 rewritten per lane, its operands cut to TF32's 19 bits as the
// hardware reads them) against the CPU pipeline; the harness's inputs
// (multiples of 1/4 below 4) are exact in TF32, so the results agree
// exactly.
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-sm80-tf32-pipeline %s
// ptxas: no spills for sm_80 and sm_90.
// RUN: %if ptxas %{ rm -f %t.report %}
// RUN: %if ptxas %{ for chip in sm_80 sm_90; do \
// RUN:   kfuse-compile %s --emit=ptx --gpu-chip=$chip --tf32 -o %t.$chip.ptx || exit 1; \
// RUN:   %ptxas -v -arch=$chip %t.$chip.ptx -o %t.cubin 2>> %t.report || exit 1; \
// RUN: done %}
// RUN: %if ptxas %{ grep "spill" %t.report | not grep -v " 0 bytes spill stores, 0 bytes spill loads" %}

// PTX-LABEL: .entry matmul_0(
// PTX: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// PTX: cp.async.wait_group 0;
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ld.shared.b32
// PTX: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// OFF-NOT: mma.sync
func.func @square(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c = kf.matmul %a, %b : tensor<64x64xf32>, tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

func.func @ragged(%a: tensor<67x33xf32>, %b: tensor<33x45xf32>) -> tensor<67x45xf32> {
  %c = kf.matmul %a, %b : tensor<67x33xf32>, tensor<33x45xf32>
  return %c : tensor<67x45xf32>
}

func.func @batched(%a: tensor<3x65x40xf32>, %b: tensor<3x40x72xf32>) -> tensor<3x65x72xf32> {
  %c = kf.matmul %a, %b : tensor<3x65x40xf32>, tensor<3x40x72xf32>
  return %c : tensor<3x65x72xf32>
}

func.func @linear_relu(%x: tensor<70x48xf32>, %w: tensor<72x48xf32>, %bias: tensor<72xf32>) -> tensor<70x72xf32> {
  %t = kf.transpose %w [1, 0] : tensor<72x48xf32>
  %h = kf.matmul %x, %t : tensor<70x48xf32>, tensor<48x72xf32>
  %y = kf.add %h, %bias : tensor<70x72xf32>, tensor<72xf32>
  %r = kf.relu %y : tensor<70x72xf32>
  return %r : tensor<70x72xf32>
}

func.func @at_b(%a: tensor<40x56xf32>, %b: tensor<40x24xf32>) -> tensor<56x24xf32> {
  %t = kf.transpose %a [1, 0] : tensor<40x56xf32>
  %c = kf.matmul %t, %b : tensor<56x40xf32>, tensor<40x24xf32>
  return %c : tensor<56x24xf32>
}
