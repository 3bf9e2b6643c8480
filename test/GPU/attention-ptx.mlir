// The attention kernel's PTX (gpu/attention/AttentionKernels.cpp): one
// entry a function, the keys' tiles staged in shared memory between
// barriers and read back as 128-bit vectors, the scores' exponentials
// (ex2, libdevice's expf).
// RUN: kfuse-compile %s --emit=ptx --gpu-chip=sm_90 | FileCheck %s
// CHECK-LABEL: .entry attention_matmul_mul_add_max_sub_exp_sum_div_etc_0(
// CHECK-DAG: bar.sync
// CHECK-DAG: ld.shared.v4.b32
// CHECK-DAG: ex2.approx
// CHECK-LABEL: .entry attention_matmul_max_sub_exp_sum_div_matmul_1(
// CHECK-DAG: bar.sync
// CHECK-DAG: ld.shared.v4.b32
// CHECK-DAG: ex2.approx
// CHECK-NOT: .entry
// The same kernel assembles without spilling its registers at GPT-2's
// head dim (64 for q, k and v: 231 registers of 255) and at the largest
// the mapping takes (96 + 64, 16 keys a tile: 241 registers).
// RUN: %if ptxas %{ kfuse-compile %s --emit=ptx --gpu-chip=sm_90 -o %t.ptx && %ptxas -v -arch=sm_90 %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ kfuse-compile %s --emit=ptx --gpu-chip=sm_80 -o %t.80.ptx && %ptxas -v -arch=sm_80 %t.80.ptx -o %t.80.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS-COUNT-2: 0 bytes spill stores, 0 bytes spill loads

func.func @head64(%q: tensor<2x12x100x64xf32>, %k: tensor<2x12x100x64xf32>, %v: tensor<2x12x100x64xf32>,
                  %mask: tensor<100x100xf32>) -> tensor<2x12x100x64xf32> {
  %kt = kf.transpose %k [0, 1, 3, 2] : tensor<2x12x100x64xf32>
  %s = kf.matmul %q, %kt : tensor<2x12x100x64xf32>, tensor<2x12x64x100xf32>
  %scale = kf.constant dense<0.125> : tensor<f32>
  %d = kf.mul %s, %scale : tensor<2x12x100x100xf32>, tensor<f32>
  %a = kf.add %d, %mask : tensor<2x12x100x100xf32>, tensor<100x100xf32>
  %p = kf.softmax %a dim -1 : tensor<2x12x100x100xf32>
  %o = kf.matmul %p, %v : tensor<2x12x100x100xf32>, tensor<2x12x100x64xf32>
  return %o : tensor<2x12x100x64xf32>
}

func.func @head96_64(%q: tensor<4x100x96xf32>, %k: tensor<4x100x96xf32>, %v: tensor<4x100x64xf32>) -> tensor<4x100x64xf32> {
  %kt = kf.transpose %k [0, 2, 1] : tensor<4x100x96xf32>
  %s = kf.matmul %q, %kt : tensor<4x100x96xf32>, tensor<4x96x100xf32>
  %p = kf.softmax %s dim -1 : tensor<4x100x100xf32>
  %o = kf.matmul %p, %v : tensor<4x100x100xf32>, tensor<4x100x64xf32>
  return %o : tensor<4x100x64xf32>
}
