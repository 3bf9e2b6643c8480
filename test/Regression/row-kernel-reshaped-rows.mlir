// Found by kf_fuzz.py run against the GPU mapping (seed 2, program 21): a
// layer_norm kernel (rows [3], columns [3, 3]) fused, through a reshape, an
// op over [27, 1, 1]. The row mapping took it for an op over the rows (its
// last two loops have size 1) and computed 3 of its 27 elements, on the GPU
// and in the host runtime alike. Row ops must now have the kernel's rows;
// this kernel was refused on the GPU and ran serially on the host. Since
// issue 13 (item 1) kernel formation no longer puts the [27, 1, 1] op in
// the row kernel (row-mismatch): two kernels, both on the GPU.
// RUN: kfuse-compile %s --emit=ptx -o - | FileCheck %s
// CHECK: .entry reduction_sub_mean_sub_mul_mean_add_rsqrt_mul_etc_0(
// CHECK: .entry pointwise_gt_1(
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s --check-prefix=REPORT
// REPORT: (sqrt -> gt): row-mismatch
// RUN: kfuse-run %s --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=RUNS
// RUNS: check against the CPU, unfused: {{.*}}: ok
func.func @p2_21(%arg1: tensor<1xf32>, %arg2: tensor<3x3x3xf16>, %arg3: tensor<3x1xf32>, %arg4: tensor<f32>) -> (tensor<27x1x1xi1>) {
  %v0 = kf.sub %arg2, %arg1 : tensor<3x3x3xf16>, tensor<1xf32>
  %v3 = kf.layer_norm %v0 normalized_shape [3, 3] eps 1.0e-05 : tensor<3x3x3xf32>
  %v5 = kf.ge %v3, %arg3 : tensor<3x3x3xf32>, tensor<3x1xf32>
  %v6 = kf.eq %v5, %arg3 : tensor<3x3x3xi1>, tensor<3x1xf32>
  %v20 = kf.sqrt %v6 : tensor<3x3x3xi1>
  %v35 = kf.reshape %v20 [27, -1, 1] : tensor<3x3x3xf32>
  %v36 = kf.gt %arg4, %v35 : tensor<f32>, tensor<27x1x1xf32>
  return %v36 : tensor<27x1x1xi1>
}
