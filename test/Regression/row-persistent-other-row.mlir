// Issue 12 (item 6): the row-persistent rule looked at the iteration
// spaces only. `a - a.sum(1)` on a square matrix broadcasts the sums over
// the other axis (element [i, j] needs row j's sum), yet it was fused into
// one row kernel; the report said 1 kernel, the GPU mapping then refused it
// ("reads another's result at another row") and the host ran it serially.
// The rule now requires the consumer to read the value of its own row:
// here 2 kernels (boundary `other-row`), both with GPU code; the keepdim
// form (row i reads row i's sum) still fuses.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s --check-prefix=REPORT
// REPORT-LABEL: function @other_row
// REPORT: kernels 2 2
// REPORT: (sum -> sub): other-row: reads the reduction's value of another row
// REPORT-LABEL: function @other_row_dynamic
// REPORT: kernels 2 2
// REPORT: (sum -> sub): other-row
// REPORT-LABEL: function @own_row
// REPORT: kernels 2 1
// REPORT: boundaries: none
// RUN: kfuse-compile %s --emit=ptx -o - | FileCheck %s --check-prefix=PTX
// PTX-DAG: .entry reduction_sum_0(
// PTX-DAG: .entry pointwise_sub_1(
// PTX-DAG: .entry reduction_sum_2(
// PTX-DAG: .entry pointwise_sub_3(
// PTX-DAG: .entry reduction_sum_sub_4(
// The numbers, against numpy (x[i, j] - sum of row j).
// RUN: kfuse-compile %s --emit=lib -o %t.so
// RUN: %run-check %t.so --input "arg0=f32[5,5]" --expect "arg0 - arg0.sum(1)" \
// RUN:   -- --entry other_row --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=NUMBERS
// RUN: %run-check %t.so --input "arg0=f32[7,7]" --expect "arg0 - arg0.sum(1)" \
// RUN:   -- --entry other_row_dynamic --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=NUMBERS
// RUN: %run-check %t.so --input "arg0=f32[5,5]" --expect "arg0 - arg0.sum(1, keepdims=True)" \
// RUN:   -- --entry own_row --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=NUMBERS
// NUMBERS: check against the CPU, unfused: {{.*}}: ok
// NUMBERS: run_check: result0 float32[{{.*}}] matches numpy
func.func @other_row(%a: tensor<5x5xf32>) -> tensor<5x5xf32> {
  %s = kf.sum %a dims [1] : tensor<5x5xf32>
  %d = kf.sub %a, %s : tensor<5x5xf32>, tensor<5xf32>
  return %d : tensor<5x5xf32>
}
func.func @other_row_dynamic(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %s = kf.sum %a dims [1] : tensor<?x?xf32>
  %d = kf.sub %a, %s : tensor<?x?xf32>, tensor<?xf32>
  return %d : tensor<?x?xf32>
}
func.func @own_row(%a: tensor<5x5xf32>) -> tensor<5x5xf32> {
  %s = kf.sum %a dims [1] keepdim : tensor<5x5xf32>
  %d = kf.sub %a, %s : tensor<5x5xf32>, tensor<5x1xf32>
  return %d : tensor<5x5xf32>
}
