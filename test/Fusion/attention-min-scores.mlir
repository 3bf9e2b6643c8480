// The attention rule forms its kernel only where the scores it never
// writes take at least `attention-min-scores` bytes (static sizes; a
// dynamic size is formed). The target decides the default: 0 on the GPU,
// 1 GiB on the host runtime, whose three kernels (register-tiled matmuls,
// the softmax's row kernel, scores in cache) were faster at every size
// measured. Below the bar the ops stay as the other rules group them and
// a missed remark says why.
//
// The scores of @sdpa: 2 x 3 x 40 x 40 f32 = 38400 bytes.
// RUN: kfuse-opt %s --kf-to-linalg "--kf-form-kernels=attention-min-scores=38400" \
// RUN:   | FileCheck %s --check-prefix=AT-BAR
// RUN: kfuse-opt %s --kf-to-linalg "--kf-form-kernels=attention-min-scores=38401" \
// RUN:   --remarks-filter-missed=kf-form-kernels 2>&1 | FileCheck %s --check-prefix=BELOW
// AT-BAR-LABEL: func.func @sdpa
// AT-BAR: kf.kernel "attention_matmul_div_add_max_sub_exp_sum_div_etc_0" kind attention
// AT-BAR-LABEL: func.func @dynamic
// AT-BAR: kind attention
// BELOW: Function=sdpa | Reason="its scores take 38400 bytes, below attention-min-scores (38401): on this target the three kernels are faster", Remark="attention not formed as one kernel"
// BELOW-LABEL: func.func @sdpa
// BELOW-NOT: kind attention
// BELOW: kf.kernel "matmul_div_add_{{[0-9]+}}" kind matmul
// BELOW: kf.kernel "reduction_max_sub_exp_sum_div_{{[0-9]+}}" kind reduction
// BELOW: kf.kernel "matmul_{{[0-9]+}}" kind matmul
// A dynamic size may be any size: formed.
// BELOW-LABEL: func.func @dynamic
// BELOW: kind attention
//
// The targets' defaults: the GPU's pipeline forms it, the host runtime's
// does not (its kernels are named by the LLVM functions it emits), unless
// --fusion says so; kfuse-compile's fused GPU version as well.
// RUN: kfuse-opt %s --kf-gpu-pipeline | FileCheck %s --check-prefix=GPU
// GPU: .visible .entry attention_matmul_div_add_max_sub_exp_sum_div_etc_0(
// RUN: kfuse-opt %s --kf-host-runtime-pipeline > %t.host
// RUN: FileCheck %s --check-prefix=HOST < %t.host
// RUN: FileCheck %s --check-prefix=HOST-NONE < %t.host
// HOST-DAG: llvm.func @__kfuse_host_kfuse_kernels_reduction_max_sub_exp_sum_div_{{[0-9]+}}(
// HOST-DAG: llvm.func @__kfuse_host_kfuse_kernels_attention_matmul_max_sub_exp_sum_div_matmul_{{[0-9]+}}(
// HOST-NONE-NOT: attention_matmul_div_add
// RUN: kfuse-opt %s "--kf-host-runtime-pipeline=attention-min-scores=0" \
// RUN:   | FileCheck %s --check-prefix=HOST-FORCED
// HOST-FORCED: llvm.func @__kfuse_host_kfuse_kernels_attention_matmul_div_add_max_sub_exp_sum_div_etc_0(
// RUN: kfuse-compile %s --emit=kernels | FileCheck %s --check-prefix=COMPILE
// COMPILE-LABEL: func.func @sdpa
// COMPILE: kind attention
//
// kfuse-run on the CPU runs the host's kernels: three here, the attention
// kernel with --fusion=attention-min-scores=0.
// RUN: env KFUSE_CACHE_DIR=%t.cache kfuse-run %s --entry sdpa --device=cpu --warmup=0 \
// RUN:   --repeat=1 | FileCheck %s --check-prefix=RUN-HOST
// RUN-HOST: kernels {{ *}}9 {{ *}}3
// RUN-HOST: reduction_max_sub_exp_sum_div_
// RUN: env KFUSE_CACHE_DIR=%t.cache kfuse-run %s --entry sdpa --device=cpu --warmup=0 \
// RUN:   --repeat=1 --fusion=attention-min-scores=0 | FileCheck %s --check-prefix=RUN-FORCED
// RUN-FORCED: kernels {{ *}}9 {{ *}}1
// RUN-FORCED: attention_matmul_div_add_max_sub_exp_sum_div_etc_0
//
// Not a number of bytes (each refused before any IR is touched):
// RUN: not kfuse-opt %s --kf-to-linalg "--kf-form-kernels=attention-min-scores=-1" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-PASS
// BAD-PASS: kf-form-kernels: attention-min-scores must be a number of bytes, got '-1'
// RUN: not kfuse-opt %s "--kf-kernel-report=attention-min-scores=1G" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-REPORT
// BAD-REPORT: kf-kernel-report: attention-min-scores must be a number of bytes, got '1G'
// RUN: not kfuse-compile %s --fusion=attention-min-scores= 2>&1 | FileCheck %s --check-prefix=BAD-FUSION
// BAD-FUSION: kfuse-compile: error: --fusion=attention-min-scores=: attention-min-scores must be a number of bytes, got ''

func.func @sdpa(%q: tensor<2x3x40x8xf32>, %k: tensor<2x3x40x8xf32>, %v: tensor<2x3x40x8xf32>,
                %mask: tensor<40x40xf32>) -> tensor<2x3x40x8xf32> {
  %kt = kf.transpose %k [0, 1, 3, 2] : tensor<2x3x40x8xf32>
  %s = kf.matmul %q, %kt : tensor<2x3x40x8xf32>, tensor<2x3x8x40xf32>
  %scale = kf.constant dense<2.828> : tensor<f32>
  %d = kf.div %s, %scale : tensor<2x3x40x40xf32>, tensor<f32>
  %a = kf.add %d, %mask : tensor<2x3x40x40xf32>, tensor<40x40xf32>
  %p = kf.softmax %a dim -1 : tensor<2x3x40x40xf32>
  %o = kf.matmul %p, %v : tensor<2x3x40x40xf32>, tensor<2x3x40x8xf32>
  return %o : tensor<2x3x40x8xf32>
}

func.func @dynamic(%q: tensor<?x8xf32>, %k: tensor<?x8xf32>, %v: tensor<?x8xf32>)
    -> tensor<?x8xf32> {
  %kt = kf.transpose %k [1, 0] : tensor<?x8xf32>
  %s = kf.matmul %q, %kt : tensor<?x8xf32>, tensor<8x?xf32>
  %p = kf.softmax %s dim -1 : tensor<?x?xf32>
  %o = kf.matmul %p, %v : tensor<?x?xf32>, tensor<?x8xf32>
  return %o : tensor<?x8xf32>
}
