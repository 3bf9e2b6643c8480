// A matmul kernel's variant is chosen with its mapping, on tensors, from the
// chip's typed target, the element types and the options (GpuTarget.h,
// chooseMatmulVariant): the tensor-core kernel for f16 and bf16 operands
// on a chip with tensor cores (sm_80 on; sm_75's mma.sync lacks the
// m16n8k16 shape on bf16, and cp.async), and for f32 only with tf32; the
// SIMT kernel for any other operands of 8 bits or more; matmul=reference
// gives the reference tile. The host runtime (serial-fallback) runs its
// own matmul and records none. Other mappings have no variant.
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings=chip=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings=chip=sm_90 | FileCheck %s --check-prefix=SM80
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings | FileCheck %s --check-prefix=SM75
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings="chip=sm_80 tf32=true" | FileCheck %s --check-prefix=TF32
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings="chip=sm_90 matmul=reference" | FileCheck %s --check-prefix=REF
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings="chip=sm_90 serial-fallback=true" | FileCheck %s --check-prefix=HOST
// A chip the mappings do not know is refused before the IR is touched (the
// variant depends on it: a typo must not silently pick the SIMT kernel),
// and so is a matmul design that does not exist.
// RUN: not kfuse-opt %s --kf-assign-kernel-mappings=chip=sm_61 2>&1 | FileCheck %s --check-prefix=BADCHIP
// RUN: not kfuse-opt %s --kf-assign-kernel-mappings=matmul=fast 2>&1 | FileCheck %s --check-prefix=BADDESIGN
// BADCHIP: error: kf-assign-kernel-mappings: unsupported GPU chip 'sm_61': kfuse emits PTX ISA 8.0 for sm_75, sm_80, sm_86, sm_87, sm_89, sm_90
// BADDESIGN: error: kf-assign-kernel-mappings: matmul must be `fastest` or `reference`, got `fast`

// SM80-LABEL: func.func @half
// SM80: kf.kernel "matmul_{{[0-9]+}}" kind matmul mapping matmul variant tensor_core
// SM75-LABEL: func.func @half
// SM75: kf.kernel "matmul_{{[0-9]+}}" kind matmul mapping matmul variant simt
// REF-LABEL: func.func @half
// REF: kf.kernel "matmul_{{[0-9]+}}" kind matmul mapping matmul variant reference
// HOST-LABEL: func.func @half
// HOST: kf.kernel "matmul_{{[0-9]+}}" kind matmul mapping matmul ->
func.func @half(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>) -> tensor<64x16xf16> {
  %c = kf.matmul %a, %b : tensor<64x32xf16>, tensor<32x16xf16>
  return %c : tensor<64x16xf16>
}

// -----

// bf16 with a bias and relu fused after it: the epilogue does not change
// the variant.
// SM80-LABEL: func.func @linear_relu_bf16
// SM80: kf.kernel "matmul_add_relu_{{[0-9]+}}" kind matmul mapping matmul variant tensor_core
// SM75-LABEL: func.func @linear_relu_bf16
// SM75: variant simt
func.func @linear_relu_bf16(%x: tensor<8x32xbf16>, %w: tensor<32x16xbf16>, %b: tensor<16xbf16>) -> tensor<8x16xbf16> {
  %m = kf.matmul %x, %w : tensor<8x32xbf16>, tensor<32x16xbf16>
  %a = kf.add %m, %b : tensor<8x16xbf16>, tensor<16xbf16>
  %r = kf.relu %a : tensor<8x16xbf16>
  return %r : tensor<8x16xbf16>
}

// -----

// f32 stays on the SIMT kernel unless TF32 is allowed (it rounds the
// inputs to 10 bits of mantissa: PyTorch's allow_tf32 is off by default).
// SM80-LABEL: func.func @single
// SM80: kind matmul mapping matmul variant simt
// TF32-LABEL: func.func @single
// TF32: kind matmul mapping matmul variant tensor_core
// SM75-LABEL: func.func @single
// SM75: variant simt
func.func @single(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c = kf.matmul %a, %b : tensor<16x16xf32>, tensor<16x16xf32>
  return %c : tensor<16x16xf32>
}

// -----

// TF32 is for f32 alone: f64 keeps the SIMT kernel on any chip.
// TF32-LABEL: func.func @double
// TF32: kind matmul mapping matmul variant simt
func.func @double(%a: tensor<16x16xf64>, %b: tensor<16x16xf64>) -> tensor<16x16xf64> {
  %c = kf.matmul %a, %b : tensor<16x16xf64>, tensor<16x16xf64>
  return %c : tensor<16x16xf64>
}

// -----

// A pointwise kernel has a mapping and no variant.
// SM80-LABEL: func.func @pointwise
// SM80: kind pointwise mapping flat ->
// SM80-NOT: variant
func.func @pointwise(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = kf.relu %x : tensor<8xf32>
  return %r : tensor<8xf32>
}
