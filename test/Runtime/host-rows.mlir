// Row kernels and full reductions on the host runtime, mapped for a CPU
// core (passes/host/mappings/HostRows.cpp, HostReductions.cpp: vector passes over
// each row, rows and chunks spread over the cores), checked against numpy
// and against the unfused CPU pipeline (--check) at odd widths: 1 column,
// fewer than a vector (7), the masked tail (1000, 1025), dynamic rows.
//
// RUN: %run-check %s --input "arg0=f32[5x1]" --expect "softmax(arg0)" \
// RUN:   -- --entry=softmax_1 --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
// RUN: %run-check %s --input "arg0=f32[3x7]" --expect "softmax(arg0)" \
// RUN:   -- --entry=softmax_7 --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
// RUN: %run-check %s --input "arg0=f32[37x1025]" --expect "softmax(arg0)" \
// RUN:   -- --entry=softmax_dyn --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
// RUN: %run-check %s --input "arg0=f32[300x1000]" --expect "softmax(arg0)" \
// RUN:   -- --entry=softmax_dyn1000 --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
// RUN: %run-check %s --input "arg0=f32[9x1025]" \
// RUN:   --expect "arg0 - arg0.max(-1, keepdims=True) - np.log(np.exp(arg0 - arg0.max(-1, keepdims=True)).sum(-1, keepdims=True))" \
// RUN:   -- --entry=log_softmax --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
// RUN: %run-check %s --input "arg0=f32[67x1025]" \
// RUN:   --expect "(arg0 - arg0.mean(-1, keepdims=True)) / np.sqrt(arg0.var(-1, keepdims=True) + 1e-5)" \
// RUN:   -- --entry=layer_norm_dyn --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
// RUN: %run-check %s --input "arg0=f32[7x1000]" --input "arg1=f32[1000]" \
// RUN:   --expect "arg0 / np.sqrt((arg0 * arg0).mean(-1, keepdims=True) + np.finfo(np.float32).eps) * arg1" \
// RUN:   -- --entry=rms_norm --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
// RUN: %run-check %s --input "arg0=i32[5x1025]" --expect "arg0.max(1)" \
// RUN:   -- --entry=max_i32 --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
// Rows of 64 (static: run two at a time, HostRows.cpp), an odd number of
// them, over several blocks:
// RUN: %run-check %s --input "arg0=f32[67x64]" \
// RUN:   --expect "(arg0 - arg0.mean(-1, keepdims=True)) / np.sqrt(arg0.var(-1, keepdims=True) + 1e-5)" \
// RUN:   -- --entry=layer_norm_64 --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
// RUN: %run-check %s --input "arg0=f32[2049x64]" --expect "softmax(arg0)" \
// RUN:   -- --entry=softmax_64 --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
// OK: check against the CPU, unfused: {{.*}}: ok
// OK: run_check: result0 {{.*}} matches numpy
//
// The vector exp (HostRowEmitter.h: at most 1.01 ulp from the exact value,
// measured over [-104, 89]) within 2 ulp (2.4e-7 relative) of float64's.
// RUN: %run-check %s --input "arg0=f32[64x1025]" \
// RUN:   --expect "np.exp(arg0.astype(np.float64) - arg0.max(-1, keepdims=True))" --rtol 2.4e-7 --atol 0 \
// RUN:   -- --entry=exp_max --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
//
// NaN, infinities, signed zeros and a huge value in the rows: the vector
// exp and max give what the unfused program (libm's expf) gives.
// RUN: %run-check %s --input "arg0=f32[16x1025]:special" --expect "softmax(arg0)" \
// RUN:   -- --entry=softmax_dyn --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
//
// Half precision rows accumulate in f32 (the numpy reference computes in
// f32 and rounds once; f16's default tolerance, 1e-3).
// RUN: %run-check %s --input "arg0=f16[24x1025]" \
// RUN:   --expect "softmax(arg0.astype(np.float32)).astype(np.float16)" \
// RUN:   -- --entry=softmax_f16 --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
// RUN: %run-check %s --input "arg0=f16[24x1000]" \
// RUN:   --expect "arg0.astype(np.float32).sum(-1).astype(np.float16)" \
// RUN:   -- --entry=sum_f16 --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
//
// Over the leading dim the rows are columns of memory: the scalar mapping
// (the fallback) serves it, still right.
// RUN: %run-check %s --input "arg0=f32[70x5]" --expect "arg0 - arg0.mean(0)" \
// RUN:   -- --entry=center_dim0 --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
//
// Full reductions: chunks over the cores, partials combined in block
// order. 10^7 values of 0.1 (f32) sum to within 1e-6 of the exact sum
// (the compensated sums keep it near 1e-8; a plain f32 loop is 5% off).
// RUN: %run-check %s --input "arg0=f32[10000000]:fill=0.1" \
// RUN:   --expect "np.sum(arg0.astype(np.float64))" --rtol 1e-6 --atol 0 \
// RUN:   -- --entry=sum_1e7 --device=cpu --repeat=0 | FileCheck %s --check-prefix=NUMPY
// RUN: %run-check %s --input "arg0=f32[1000003]" --expect "arg0.astype(np.float64).mean()" \
// RUN:   --expect "arg0.max()" --rtol 1e-6 --atol 1e-9 \
// RUN:   -- --entry=mean_max --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=TWO
// Over several dims: one pass over the flattened elements (1-D views),
// or, keepdim (the result is [1, 1]), the scalar mapping.
// RUN: %run-check %s --input "arg0=f32[1000x1003]:unit" --expect "np.sum(arg0.astype(np.float64))" \
// RUN:   --rtol 1e-6 --atol 0 -- --entry=sum_2d --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
// RUN: %run-check %s --input "arg0=f32[37x5x1001]" --expect "np.mean(arg0.astype(np.float64) ** 2)" \
// RUN:   --rtol 1e-6 --atol 0 -- --entry=sq_mean_3d --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
// RUN: %run-check %s --input "arg0=f32[300x7]" --expect "arg0.max(keepdims=True)" \
// RUN:   -- --entry=max_keepdim_2d --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=OK
// NUMPY: run_check: result0 float32[] matches numpy
// TWO: check against the CPU, unfused: {{.*}}: ok
// TWO: run_check: result0 float32[] matches numpy
// TWO: run_check: result1 float32[] matches numpy

func.func @softmax_1(%x: tensor<5x1xf32>) -> tensor<5x1xf32> {
  %y = kf.softmax %x dim -1 : tensor<5x1xf32>
  return %y : tensor<5x1xf32>
}
func.func @softmax_7(%x: tensor<3x7xf32>) -> tensor<3x7xf32> {
  %y = kf.softmax %x dim -1 : tensor<3x7xf32>
  return %y : tensor<3x7xf32>
}
func.func @softmax_dyn(%x: tensor<?x1025xf32>) -> tensor<?x1025xf32> {
  %y = kf.softmax %x dim -1 : tensor<?x1025xf32>
  return %y : tensor<?x1025xf32>
}
func.func @softmax_dyn1000(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %y = kf.softmax %x dim -1 : tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
func.func @log_softmax(%x: tensor<9x1025xf32>) -> tensor<9x1025xf32> {
  %y = kf.log_softmax %x dim -1 : tensor<9x1025xf32>
  return %y : tensor<9x1025xf32>
}
func.func @layer_norm_dyn(%x: tensor<?x1025xf32>) -> tensor<?x1025xf32> {
  %y = kf.layer_norm %x normalized_shape [1025] eps 1.0e-5 : tensor<?x1025xf32>
  return %y : tensor<?x1025xf32>
}
func.func @layer_norm_64(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %y = kf.layer_norm %x normalized_shape [64] eps 1.0e-5 : tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}
func.func @softmax_64(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %y = kf.softmax %x dim -1 : tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}
func.func @rms_norm(%x: tensor<7x1000xf32>, %w: tensor<1000xf32>) -> tensor<7x1000xf32> {
  %y = kf.rms_norm %x weight %w : tensor<1000xf32> normalized_shape [1000] : tensor<7x1000xf32>
  return %y : tensor<7x1000xf32>
}
func.func @max_i32(%x: tensor<5x1025xi32>) -> tensor<5xi32> {
  %m = kf.max %x dims [1] : tensor<5x1025xi32>
  return %m : tensor<5xi32>
}
func.func @softmax_f16(%x: tensor<24x1025xf16>) -> tensor<24x1025xf16> {
  %y = kf.softmax %x dim -1 : tensor<24x1025xf16>
  return %y : tensor<24x1025xf16>
}
func.func @sum_f16(%x: tensor<24x1000xf16>) -> tensor<24xf16> {
  %s = kf.sum %x dims [1] : tensor<24x1000xf16>
  return %s : tensor<24xf16>
}
func.func @center_dim0(%x: tensor<70x5xf32>) -> tensor<70x5xf32> {
  %m = kf.mean %x dims [0] : tensor<70x5xf32>
  %y = kf.sub %x, %m : tensor<70x5xf32>, tensor<5xf32>
  return %y : tensor<70x5xf32>
}
func.func @sum_1e7(%x: tensor<10000000xf32>) -> tensor<f32> {
  %s = kf.sum %x : tensor<10000000xf32>
  return %s : tensor<f32>
}
func.func @mean_max(%x: tensor<1000003xf32>) -> (tensor<f32>, tensor<f32>) {
  %s = kf.mean %x : tensor<1000003xf32>
  %m = kf.max %x : tensor<1000003xf32>
  return %s, %m : tensor<f32>, tensor<f32>
}
func.func @sum_2d(%x: tensor<?x1003xf32>) -> tensor<f32> {
  %s = kf.sum %x : tensor<?x1003xf32>
  return %s : tensor<f32>
}
func.func @sq_mean_3d(%x: tensor<37x5x1001xf32>) -> tensor<f32> {
  %q = kf.mul %x, %x : tensor<37x5x1001xf32>, tensor<37x5x1001xf32>
  %s = kf.mean %q : tensor<37x5x1001xf32>
  return %s : tensor<f32>
}
func.func @max_keepdim_2d(%x: tensor<300x7xf32>) -> tensor<1x1xf32> {
  %s = kf.max %x dims [0, 1] keepdim : tensor<300x7xf32>
  return %s : tensor<1x1xf32>
}
func.func @exp_max(%x: tensor<64x1025xf32>) -> tensor<64x1025xf32> {
  %m = kf.max %x dims [1] keepdim : tensor<64x1025xf32>
  %d = kf.sub %x, %m : tensor<64x1025xf32>, tensor<64x1xf32>
  %e = kf.exp %d : tensor<64x1025xf32>
  return %e : tensor<64x1025xf32>
}
