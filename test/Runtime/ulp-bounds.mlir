// The accuracy of kfuse's f32 math on the CPU, in ulp of the result, over
// 2^20 points an op against numpy's float64 (ulp-bounds.mlir.py): each op
// within the bound docs/reference/accuracy.md states for it. Each runs
// alone in a flat kernel (the host's vector mapping, 8 lanes). Before
// issue 27, expm1 reached 3.9 ulp (and gave 0 for the smallest denormal)
// and tanh 2.2 ulp: their bounds are now 0.5 and a hair.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-compile %s --emit=lib -o %t/ops.so
// RUN: %python %s.py %t kfuse-run | FileCheck %s
// CHECK: exp within {{[0-9.]+}} ulp: ok
// CHECK: exp2 within {{[0-9.]+}} ulp: ok
// CHECK: expm1 within {{[0-9.]+}} ulp: ok
// CHECK: log within {{[0-9.]+}} ulp: ok
// CHECK: log1p within {{[0-9.]+}} ulp: ok
// CHECK: sqrt within {{[0-9.]+}} ulp: ok
// CHECK: rsqrt within {{[0-9.]+}} ulp: ok
// CHECK: reciprocal within {{[0-9.]+}} ulp: ok
// CHECK: tanh within {{[0-9.]+}} ulp: ok
// CHECK: sigmoid within {{[0-9.]+}} ulp: ok
// CHECK: silu within {{[0-9.]+}} ulp: ok
// CHECK: sin within {{[0-9.]+}} ulp: ok
// CHECK: cos within {{[0-9.]+}} ulp: ok
// CHECK: erf within {{[0-9.]+}} ulp: ok
// CHECK: gelu within {{[0-9.]+}} ulp: ok
// CHECK: gelu_tanh within {{[0-9.]+}} ulp: ok
// CHECK: gelu below -13 flushed within 7.95e-38: ok
// CHECK-NOT: OVER

func.func @exp(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = kf.exp %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @exp2(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = kf.exp2 %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @expm1(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = kf.expm1 %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @log(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = kf.log %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @log1p(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = kf.log1p %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @sqrt(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = kf.sqrt %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @rsqrt(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = kf.rsqrt %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @reciprocal(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = kf.reciprocal %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @tanh(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = kf.tanh %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @sigmoid(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = kf.sigmoid %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @silu(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = kf.silu %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @sin(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = kf.sin %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @cos(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = kf.cos %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @erf(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = kf.erf %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @gelu(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = kf.gelu %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

// GPT-2's GELU, written out as transformers' NewGELUActivation writes it:
// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
func.func @gelu_tanh(%x: tensor<?xf32>) -> tensor<?xf32> {
  %half = kf.constant dense<0.5> : tensor<f32>
  %one = kf.constant dense<1.0> : tensor<f32>
  %k = kf.constant dense<0.044715> : tensor<f32>
  %c = kf.constant dense<0.7978845608028654> : tensor<f32>
  %x2 = kf.mul %x, %x : tensor<?xf32>, tensor<?xf32>
  %x3 = kf.mul %x2, %x : tensor<?xf32>, tensor<?xf32>
  %kx3 = kf.mul %x3, %k : tensor<?xf32>, tensor<f32>
  %inner = kf.add %x, %kx3 : tensor<?xf32>, tensor<?xf32>
  %y = kf.mul %inner, %c : tensor<?xf32>, tensor<f32>
  %t = kf.tanh %y : tensor<?xf32>
  %onet = kf.add %one, %t : tensor<f32>, tensor<?xf32>
  %hx = kf.mul %x, %half : tensor<?xf32>, tensor<f32>
  %g = kf.mul %hx, %onet : tensor<?xf32>, tensor<?xf32>
  return %g : tensor<?xf32>
}
