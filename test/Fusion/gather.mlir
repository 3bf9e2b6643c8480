// Gathers (kf.index_select, kf.gather) in kernels: consumers fuse into a
// gather as into any elementwise op (a GPT-2 embedding and its layer_norm
// are one kernel), while a kernel that computes the gathered tensor stays
// apart (boundary `gathered`: the rows are read at indices loaded when the
// kernel runs, so the whole tensor must be in memory first), even where
// another edge would join them. The report counts a gathered read as the
// elements gathered, not the whole table.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels | FileCheck %s --check-prefix=IR
// RUN: kfuse-opt %s "--kf-kernel-report=format=json report-file=%t.json" -o /dev/null
// RUN: %python %kfuse_src/test/harness/validate_json.py %kfuse_src/docs/reference/schemas/kernel-report.schema.json %t.json
// RUN: %fusion-diff %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s

// Token rows + position rows, then layer_norm: one row kernel. Of the
// 1000x16 table it reads the 4x8 tokens' rows, 4x8x16 elements.
// CHECK-LABEL: function @embedding
// CHECK:       kernels {{[0-9]+}} 1
// CHECK:       reduction_index_select_add_mean_{{.*}} (reduction): ops index_select, add, mean
// CHECK-NEXT:    reads arg0 1000x16xf32 gathered 4x8x16, arg2 4x8xi64, arg1 8x16xf32, arg3 16xf32, arg4 16xf32
// CHECK:         runs as row, variant on_chip
// CHECK:       boundaries: none
// IR-LABEL: func.func @embedding
// IR:         kf.kernel "reduction_index_select_add_mean_
// IR:           tensor.extract %arg0
// IR-NOT:     kf.kernel
// IR:         return
func.func @embedding(%wte: tensor<1000x16xf32>, %wpe: tensor<8x16xf32>, %tok: tensor<4x8xi64>,
                     %g: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<4x8x16xf32> {
  %e = kf.index_select %wte, %tok dim 0 : tensor<1000x16xf32>, tensor<4x8xi64>
  %h = kf.add %e, %wpe : tensor<4x8x16xf32>, tensor<8x16xf32>
  %n = kf.layer_norm %h weight %g : tensor<16xf32> bias %b : tensor<16xf32> normalized_shape [16] eps 1.0e-05 : tensor<4x8x16xf32>
  return %n : tensor<4x8x16xf32>
}

// A computed table: exp's kernel writes it, the gather's kernel reads it.
// The add reads t in place too, which alone would fuse exp into it: the
// gathered edge keeps the two kernels apart all the same.
// CHECK-LABEL: function @computed_table
// CHECK:       kernels 3 2
// CHECK:       pointwise_exp_{{[0-9]+}} (pointwise): ops exp
// CHECK:       pointwise_index_select_add_{{[0-9]+}} (pointwise): ops index_select, add
// CHECK-NEXT:    reads pointwise_exp_{{[0-9]+}}#0 6x4xf32, arg1 6xi64
// CHECK:       boundaries:
// CHECK-NEXT:    pointwise_exp_{{[0-9]+}} -> pointwise_index_select_add_{{[0-9]+}} (exp -> index_select): gathered: read at indices loaded when it runs
// CHECK-NEXT:    pointwise_exp_{{[0-9]+}} -> pointwise_index_select_add_{{[0-9]+}} (exp -> add): gathered
func.func @computed_table(%x: tensor<6x4xf32>, %i: tensor<6xi64>) -> tensor<6x4xf32> {
  %t = kf.exp %x : tensor<6x4xf32>
  %g = kf.index_select %t, %i dim 0 : tensor<6x4xf32>, tensor<6xi64>
  %y = kf.add %g, %t : tensor<6x4xf32>, tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// torch.gather after a row reduction's kernel: the reduction's kernel
// writes the rows the gather reads.
// CHECK-LABEL: function @gather_after_softmax
// CHECK:       kernels {{[0-9]+}} 2
// CHECK:       (reduction): ops max, sub, exp, sum, div
// CHECK:       pointwise_gather_log_{{[0-9]+}} (pointwise): ops gather, log
// CHECK:       (div -> gather): gathered
func.func @gather_after_softmax(%x: tensor<6x10xf32>, %target: tensor<6x1xi64>) -> tensor<6x1xf32> {
  %p = kf.softmax %x dim 1 : tensor<6x10xf32>
  %g = kf.gather %p, %target dim 1 : tensor<6x10xf32>, tensor<6x1xi64>
  %l = kf.log %g : tensor<6x1xf32>
  return %l : tensor<6x1xf32>
}
