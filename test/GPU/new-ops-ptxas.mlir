// The PTX of the ops of issue 12 assembles with ptxas for sm_75, sm_80 and
// sm_90 (skipped where the CUDA toolkit is not installed): every new math
// function in f32, f64 and f16, the integer division and clamp, var/std,
// rms_norm, batch_norm, argmax/argmin and cat, fused and unfused.
// REQUIRES: ptxas
// RUN: for chip in sm_75 sm_80 sm_90; do \
// RUN:   kfuse-compile %s --emit=ptx --gpu-chip=$chip -o %t.$chip.ptx && \
// RUN:   %ptxas -arch=$chip %t.$chip.ptx -o %t.$chip.cubin || exit 1; \
// RUN:   kfuse-compile %s --emit=ptx --fusion=off --gpu-chip=$chip -o %t.$chip.eager.ptx && \
// RUN:   %ptxas -arch=$chip %t.$chip.eager.ptx -o %t.$chip.eager.cubin || exit 1; \
// RUN: done

func.func @math_f32(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %0 = kf.exp2 %x : tensor<?xf32>
  %1 = kf.log1p %0 : tensor<?xf32>
  %2 = kf.expm1 %1 : tensor<?xf32>
  %3 = kf.erf %2 : tensor<?xf32>
  %4 = kf.floor %3 : tensor<?xf32>
  %5 = kf.ceil %4 : tensor<?xf32>
  %6 = kf.round %5 : tensor<?xf32>
  %7 = kf.remainder %6, %y : tensor<?xf32>, tensor<?xf32>
  %8 = kf.floor_divide %7, %y : tensor<?xf32>, tensor<?xf32>
  %9 = kf.clamp %8 min(-1) max(2.5) : tensor<?xf32>
  return %9 : tensor<?xf32>
}
func.func @math_f64(%x: tensor<8x?xf64>, %y: tensor<?xf64>) -> tensor<8x?xf64> {
  %0 = kf.exp2 %x : tensor<8x?xf64>
  %1 = kf.log1p %0 : tensor<8x?xf64>
  %2 = kf.expm1 %1 : tensor<8x?xf64>
  %3 = kf.erf %2 : tensor<8x?xf64>
  %4 = kf.round %3 : tensor<8x?xf64>
  %5 = kf.remainder %4, %y : tensor<8x?xf64>, tensor<?xf64>
  %6 = kf.floor_divide %5, %y : tensor<8x?xf64>, tensor<?xf64>
  %7 = kf.clamp %6 max(3) : tensor<8x?xf64>
  return %7 : tensor<8x?xf64>
}
func.func @math_half(%h: tensor<64xf16>, %b: tensor<64xbf16>) -> (tensor<64xf16>, tensor<64xbf16>) {
  %0 = kf.expm1 %h : tensor<64xf16>
  %1 = kf.round %0 : tensor<64xf16>
  %2 = kf.log1p %b : tensor<64xbf16>
  %3 = kf.floor_divide %2, %b : tensor<64xbf16>, tensor<64xbf16>
  return %1, %3 : tensor<64xf16>, tensor<64xbf16>
}
func.func @integers(%i: tensor<?xi32>, %j: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>, tensor<?xf32>) {
  %0 = kf.remainder %i, %j : tensor<?xi32>, tensor<?xi64>
  %1 = kf.floor_divide %0, %j : tensor<?xi64>, tensor<?xi64>
  %2 = kf.clamp %1 min(-3) max(7) : tensor<?xi64>
  %3 = kf.clamp %i min(0.5) : tensor<?xi32>
  return %0, %2, %3 : tensor<?xi64>, tensor<?xi64>, tensor<?xf32>
}
func.func @var(%x: tensor<?x300xf32>) -> tensor<?xf32> {
  %0 = kf.var %x dims [1] : tensor<?x300xf32>
  return %0 : tensor<?xf32>
}
func.func @std_half(%x: tensor<?x64xbf16>) -> tensor<?x1xbf16> {
  %0 = kf.std %x dims [1] correction 0 keepdim : tensor<?x64xbf16>
  return %0 : tensor<?x1xbf16>
}
func.func @rms_norm(%x: tensor<?x512xf16>, %w: tensor<512xf16>) -> tensor<?x512xf16> {
  %0 = kf.rms_norm %x weight %w : tensor<512xf16> normalized_shape [512] : tensor<?x512xf16>
  return %0 : tensor<?x512xf16>
}
func.func @batch_norm(%x: tensor<?x16x7x7xf32>, %m: tensor<16xf32>, %v: tensor<16xf32>, %w: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<?x16x7x7xf32> {
  %0 = kf.batch_norm %x, %m, %v weight %w : tensor<16xf32> bias %b : tensor<16xf32> : tensor<?x16x7x7xf32>, tensor<16xf32>, tensor<16xf32>
  return %0 : tensor<?x16x7x7xf32>
}
func.func @argmax(%x: tensor<?x1000xf32>) -> tensor<?xi64> {
  %0 = kf.argmax %x dim 1 : tensor<?x1000xf32>
  return %0 : tensor<?xi64>
}
func.func @argmin(%x: tensor<?x100xi64>) -> tensor<?x1xi64> {
  %0 = kf.argmin %x dim 1 keepdim : tensor<?x100xi64>
  return %0 : tensor<?x1xi64>
}
func.func @cat(%a: tensor<?x3xf32>, %b: tensor<?x5xi32>) -> tensor<?x8xf32> {
  %0 = kf.cat %a, %b dim 1 : tensor<?x3xf32>, tensor<?x5xi32>
  return %0 : tensor<?x8xf32>
}
