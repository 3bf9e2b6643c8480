// Issue 13, item 20: a max-ops that is no number of ops is refused with
// the option and its value. It was an unsigned llvm::cl option: "-1" gave
// llvm::cl's message and then an empty `<unknown>:0: error:`.
// RUN: not kfuse-opt %s --kf-form-kernels=max-ops=-1 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not kfuse-opt %s --kf-form-kernels=max-ops=many 2>&1 | FileCheck %s --check-prefix=WORD
// RUN: not kfuse-opt %s --kf-form-kernels=max-ops=4294967296 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not kfuse-opt %s --kf-kernel-report=max-ops=-1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels=max-ops=2 | FileCheck %s --check-prefix=TWO
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels=max-ops=0 | FileCheck %s --check-prefix=NOLIMIT

// NEG: error: kf-form-kernels: max-ops must be a number of ops from 0 (no limit) to 4294967295, got '-1'
// NEG-NOT: error: {{$}}
// WORD: error: kf-form-kernels: max-ops must be a number of ops from 0 (no limit) to 4294967295, got 'many'
// BIG: error: kf-form-kernels: max-ops must be a number of ops from 0 (no limit) to 4294967295, got '4294967296'
// REPORT: error: kf-kernel-report: max-ops must be a number of ops from 0 (no limit) to 4294967295, got '-1'
// REPORT-NOT: error: {{$}}

// Valid values still limit the kernels: three ops, two a kernel at most.
// TWO-LABEL: func.func @chain
// TWO: kf.kernel "pointwise_add_relu_0"
// TWO: kf.kernel "pointwise_exp_1"
// NOLIMIT-LABEL: func.func @chain
// NOLIMIT: kf.kernel "pointwise_add_relu_exp_0"
// NOLIMIT-NOT: kf.kernel
func.func @chain(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.add %a, %b : tensor<8xf32>, tensor<8xf32>
  %1 = kf.relu %0 : tensor<8xf32>
  %2 = kf.exp %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}
