// FMA contraction in the GPU kernels, as nvcc's default --fmad=true gives
// PyTorch's CUDA kernels (kf-contract-float-ops): where a multiply feeds an
// add the PTX has one fma.rn.f32, and no add, sub or mul keeps the .rn that
// forbids ptxas to fuse. The CPU pipelines never contract (some tests
// compare their results with numpy bit for bit): no `contract` flag and no
// fma in their LLVM dialect. The PTX assembles for sm_80 and sm_90. The
// pass itself: kf-contract-float-ops.mlir.
// RUN: kfuse-compile %s --emit=ptx | FileCheck %s
// RUN: kfuse-opt %s --kf-cpu-pipeline | FileCheck %s --check-prefix=CPU
// RUN: kfuse-opt %s --kf-host-runtime-pipeline | FileCheck %s --check-prefix=CPU
// RUN: kfuse-compile %s --emit=ptx --gpu-chip=sm_80 -o %t.sm_80.ptx
// RUN: kfuse-compile %s --emit=ptx --gpu-chip=sm_90 -o %t.sm_90.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.sm_80.ptx -o %t.sm_80.cubin %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.sm_90.ptx -o %t.sm_90.cubin %}

// CPU-NOT: contract
// CPU-NOT: fma

// a * b + c: one fma per element (4 in the vector path, 1 in the tail).
// CHECK-LABEL: .entry pointwise_mul_add_0(
// CHECK-NOT: {{(add|mul|sub)(\.rn)?\.f32}}
// CHECK: fma.rn.f32
// CHECK-NOT: {{(add|mul|sub)(\.rn)?\.f32}}
// CHECK: ret;
func.func @axpy(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>) -> tensor<?xf32> {
  %p = kf.mul %a, %b : tensor<?xf32>, tensor<?xf32>
  %s = kf.add %p, %c : tensor<?xf32>, tensor<?xf32>
  return %s : tensor<?xf32>
}

// layer_norm's epilogue, (x - mean) * rstd * w + b: the last multiply and
// the bias add are one fma; nothing is left uncontractible.
// CHECK-LABEL: .entry reduction_mean_sub_mul_mean_add_rsqrt_mul_mul_etc_1(
// CHECK-NOT: {{(add|mul|sub)\.rn\.f32}}
// CHECK: rsqrt.approx.f32
// CHECK: fma.rn.f32
// CHECK-NOT: {{(add|mul|sub)\.rn\.f32}}
// CHECK: ret;
func.func @norm(%x: tensor<?x256xf32>, %w: tensor<256xf32>, %b: tensor<256xf32>) -> tensor<?x256xf32> {
  %y = kf.layer_norm %x weight %w : tensor<256xf32> bias %b : tensor<256xf32> normalized_shape [256] eps 1.0e-5 : tensor<?x256xf32>
  return %y : tensor<?x256xf32>
}

// A matmul's inner product: a multiply-add per step is an fma.
// CHECK-LABEL: .entry matmul_add_2(
// CHECK-NOT: {{(add|mul|sub)\.rn\.f32}}
// CHECK: fma.rn.f32
// CHECK-NOT: {{(add|mul|sub)\.rn\.f32}}
// CHECK: ret;
func.func @linear(%x: tensor<?x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> tensor<?x32xf32> {
  %h = kf.matmul %x, %w : tensor<?x64xf32>, tensor<64x32xf32>
  %y = kf.add %h, %b : tensor<?x32xf32>, tensor<32xf32>
  return %y : tensor<?x32xf32>
}
