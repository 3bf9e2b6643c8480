// Graphviz's `dot` accepts the kernel graph: kf-kernel-report format=dot
// piped into `dot -Tsvg`, and kfuse-compile --dump-dir's .svg beside its
// .dot.
// REQUIRES: graphviz
// RUN: kfuse-opt %s "--kf-kernel-report=format=dot row-persistent=false" -o /dev/null | dot -Tsvg | FileCheck %s
// CHECK: <svg
// CHECK: <title>cluster_f0_k0</title>
// CHECK: reduction_max_0 (reduction)
// CHECK: rule&#45;disabled: row&#45;persistent=false
// CHECK: 4194304 bytes
// CHECK: </svg>
// RUN: rm -rf %t && kfuse-compile %s --dump-dir=%t -o %t.ptx 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=DUMP < %t/softmax.kernels.svg
// DUMP: <svg
// DUMP: reduction_max_sub_exp_sum_div_0 (reduction)
// DUMP: </svg>
func.func @softmax(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %y = kf.softmax %x dim -1 : tensor<1024x1024xf32>
  return %y : tensor<1024x1024xf32>
}
