// Found by kf_fuzz.py through kfuse-run --check (seed 705, program 37; in
// the build before too): a layer_norm over [3, 3] of a [3, 3, 3] tensor
// (rows: dim 0) then a batch_norm, whose |var| parameter (abs over [3])
// joined the row kernel as an op over the rows (3 elements, as many as the
// rows) and was read at the channel, a column loop, through a reshape to
// [3, 1]: each row's block wrote one element and read the others before
// they existed (432 where float64 says -0.42, on the host and the GPU
// emulation alike). The row analysis now follows reads through reshapes
// and refuses a kernel value read at a column loop; formation keeps the
// ops apart (`unmappable`).
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline --rtol 1e-5 --atol 1e-6 %s
// RUN: kfuse-run %s --device=cpu --repeat=0 --check --seed 1 --no-cache | FileCheck %s --check-prefix=CHECKED
// CHECKED: check against the CPU, unfused: in float64, {{.*}}: ok
// RUN: kfuse-opt %s --kf-kernel-report=reshape-propagation=false -o /dev/null | FileCheck %s
// CHECK: unmappable: no GPU mapping serves the fused kernel ({{.*}}: an op reads another's result at another row)
// With reshape-propagation (the default) the reshape is gone: |var| and
// the ops after it run over [3] and are read only by the channel's
// multiply, which computes them where it reads them (upstream elementwise
// fusion inlines a producer with one reader); one kernel, and the checks
// above agree with float64 and the unfused run.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s --check-prefix=PROPAGATED
// PROPAGATED: kernels {{[0-9]+}} 1
// PROPAGATED: boundaries: none

func.func @f(%x: tensor<3x3x3xf32>, %arg6: tensor<3x3xf64>, %arg11: tensor<3xf64>, %arg12: tensor<3xf64>, %arg13: tensor<3xf32>, %arg14: tensor<3xf64>) -> (tensor<3x3x3xf64>) {
  %v4 = kf.layer_norm %x normalized_shape [3, 3] eps 1.0e-05 : tensor<3x3x3xf32>
  %v23 = kf.minimum %arg6, %v4 : tensor<3x3xf64>, tensor<3x3x3xf32>
  %v38 = kf.abs %arg12 : tensor<3xf64>
  %v39 = kf.batch_norm %v23, %arg11, %v38 weight %arg13 : tensor<3xf32> bias %arg14 : tensor<3xf64> : tensor<3x3x3xf64>, tensor<3xf64>, tensor<3xf64>
  return %v39 : tensor<3x3x3xf64>
}
