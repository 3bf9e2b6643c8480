// Prefix scans (kf.cumsum) in kernels. The scan mapping runs a scan with
// what is computed in its body (elementwise producers read once each) and
// elementwise ops after it that read its result where it is computed (a
// mask builder's arithmetic); a kernel holding anything else is refused
// by it and formed again with its ops apart (boundary `unmappable`, with
// the mapping's reason). Counts argued by hand: an element of i1 is 1
// byte, of i64 8, of f32 4.
// RUN: kfuse-opt %s -split-input-file --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings | FileCheck %s --check-prefix=IR
// RUN: %fusion-diff %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s

// A scan alone: reads and writes 64 x 128 f32, 2 x 8192 elements.
// CHECK-LABEL: function @alone
// CHECK:       kernels 1 1
// CHECK:       elements 16384 16384
// CHECK:       reduction_cumsum_{{.*}} (reduction): ops cumsum
// CHECK:         runs as scan
// CHECK:       boundaries: none
// IR-LABEL: func.func @alone
// IR:         kf.kernel "reduction_cumsum_{{.*}}" kind reduction mapping scan
func.func @alone(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = kf.cumsum %x dim 1 : tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

// transformers' position ids from an attention mask,
// `(m.cumsum(-1) - 1).masked_fill(m == 0, 1)`: one kernel that reads the
// mask (8192 bytes) and writes the positions (65536), where eager runs 3
// (cumsum: 1 + 8 bytes an element; sub: 8 + 8; where: 1 + 8 + 8 = 42
// bytes an element, 344064).
// CHECK-LABEL: function @positions
// CHECK:       kernels 3 1
// CHECK:       transfers 7 2
// CHECK:       bytes 344064 73728
// CHECK:       reduction_cumsum_sub_where_{{.*}} (reduction): ops cumsum, sub, where
// CHECK:         runs as scan
// CHECK:       boundaries: none
func.func @positions(%m: tensor<64x128xi1>) -> tensor<64x128xi64> {
  %c = kf.cumsum %m dim 1 : tensor<64x128xi1>
  %one = kf.constant dense<1> : tensor<i64>
  %p = kf.sub %c, %one : tensor<64x128xi64>, tensor<i64>
  %pos = kf.where %m, %p, %one : tensor<64x128xi1>, tensor<64x128xi64>, tensor<i64>
  return %pos : tensor<64x128xi64>
}

// -----

// An elementwise producer read only by the scan is computed in its body:
// one kernel, x read and the sums written (2 x 8192 elements).
// CHECK-LABEL: function @producer_inside
// CHECK:       kernels 2 1
// CHECK:       elements 32768 16384
// CHECK:       reduction_exp_cumsum_{{.*}} (reduction): ops exp, cumsum
// CHECK:         runs as scan
func.func @producer_inside(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = kf.exp %x : tensor<64x128xf32>
  %0 = kf.cumsum %e dim 1 : tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

// Refused: exp is read by the scan and by the divide after it, so it is
// an op of the kernel before the scan, which the scan mapping does not
// run: the three ops are formed again apart, the reason on each boundary.
// CHECK-LABEL: function @shared_producer
// CHECK:       kernels 3 3
// CHECK:       (exp -> cumsum): unmappable: no GPU mapping serves the fused kernel ({{.*}}: a prefix scan (kf.cumsum) is a kernel of its own: the scan mapping walks each line in order, and runs nothing else)
// CHECK:       (cumsum -> div): unmappable:
func.func @shared_producer(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = kf.exp %x : tensor<64x128xf32>
  %0 = kf.cumsum %e dim 1 : tensor<64x128xf32>
  %1 = kf.div %0, %e : tensor<64x128xf32>, tensor<64x128xf32>
  return %1 : tensor<64x128xf32>
}

// -----

// A reduction of the sums is a kernel of its own (boundary
// producer-reduction, as after any reduction read over its reduced rows).
// CHECK-LABEL: function @reduced
// CHECK:       kernels 2 2
// CHECK:       (cumsum -> sum): producer-reduction
func.func @reduced(%x: tensor<64x128xf32>) -> tensor<64xf32> {
  %0 = kf.cumsum %x dim 1 : tensor<64x128xf32>
  %1 = kf.sum %0 dims [1] : tensor<64x128xf32>
  return %1 : tensor<64xf32>
}
