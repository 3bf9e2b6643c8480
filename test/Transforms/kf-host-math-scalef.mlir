// RUN: kfuse-opt %s -split-input-file --kf-host-math=x86-scalef=1 | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-host-math | FileCheck %s --check-prefix=PLAIN

// kf-host-math's x86-scalef (kfuse-compile sets it for a CPU with AVX-512 F
// and VL): exp's 2^n of a vector of 4, 8 or 16 f32 is one vscalefps,
// LLVM's x86 intrinsic, where 2^n in two halves is a conversion to int, a
// shift, a subtraction, two exponent fields and two products. The bits
// are the same (test/Runtime/host-exp-same-bits.mlir compiles for this
// machine's CPU and compares the vector lanes with the scalar tail's).

// 8 lanes: the 256-bit form (AVX512VL), every lane masked in (-1 : i8);
// the lanes below -104 still give 0 and NaN stays NaN.
// CHECK-LABEL: func.func @exp8
// CHECK: %[[N:.*]] = math.roundeven %{{.*}} : vector<8xf32>
// CHECK: %[[Y:.*]] = arith.addf %{{.*}} : vector<8xf32>
// CHECK: %[[ALL:.*]] = arith.constant -1 : i8
// CHECK: %[[E:.*]] = llvm.call_intrinsic "llvm.x86.avx512.mask.scalef.ps.256"(%[[Y]], %[[N]], %[[Y]], %[[ALL]]) : (vector<8xf32>, vector<8xf32>, vector<8xf32>, i8) -> vector<8xf32>
// CHECK-NOT: arith.fptosi
// CHECK-NOT: arith.shli
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[E]] : vector<8xi1>, vector<8xf32>
// CHECK: arith.cmpf uno
// PLAIN-LABEL: func.func @exp8
// PLAIN-NOT: llvm.call_intrinsic
// PLAIN: arith.fptosi %{{.*}} : vector<8xf32> to vector<8xi32>
// PLAIN: arith.shrsi
func.func @exp8(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.exp %x : vector<8xf32>
  return %y : vector<8xf32>
}

// -----

// 16 lanes (a zmm matmul epilogue's): the 512-bit form, with the rounding
// operand (4: the current rounding mode); 4 lanes the 128-bit one.
// CHECK-LABEL: func.func @exp16_and_4
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.mask.scalef.ps.512"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>, i16, i32) -> vector<16xf32>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.mask.scalef.ps.128"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (vector<4xf32>, vector<4xf32>, vector<4xf32>, i8) -> vector<4xf32>
func.func @exp16_and_4(%x: vector<16xf32>, %z: vector<4xf32>) -> (vector<16xf32>, vector<4xf32>) {
  %y = math.exp %x : vector<16xf32>
  %w = math.exp %z : vector<4xf32>
  return %y, %w : vector<16xf32>, vector<4xf32>
}

// -----

// Not vscalefps: a scalar (a kernel's tail), a vector of 2 or of 32 lanes
// (no such instruction), and f64 (libm) keep their code; f16 goes through
// f32 vectors of its lanes, so 8 f16 lanes use it.
// CHECK-LABEL: func.func @others
// CHECK-COUNT-1: llvm.call_intrinsic "llvm.x86.avx512.mask.scalef.ps.256"
// CHECK-NOT: llvm.call_intrinsic
// CHECK: return
func.func @others(%s: f32, %v2: vector<2xf32>, %v32: vector<32xf32>, %d: vector<8xf64>, %h: vector<8xf16>) -> (f32, vector<2xf32>, vector<32xf32>, vector<8xf64>, vector<8xf16>) {
  %a = math.exp %s : f32
  %b = math.exp %v2 : vector<2xf32>
  %c = math.exp %v32 : vector<32xf32>
  %e = math.exp %d : vector<8xf64>
  %f = math.exp %h : vector<8xf16>
  return %a, %b, %c, %e, %f : f32, vector<2xf32>, vector<32xf32>, vector<8xf64>, vector<8xf16>
}

// -----

// The GELU's exp (1 + erf rewritten into erfc, HostMathComplements.cpp)
// uses it too.
// CHECK-LABEL: func.func @gelu_erf
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.mask.scalef.ps.256"
// CHECK-NOT: math.erf
func.func @gelu_erf(%x: vector<8xf32>) -> vector<8xf32> {
  %half = arith.constant dense<0.5> : vector<8xf32>
  %one = arith.constant dense<1.0> : vector<8xf32>
  %k = arith.constant dense<0.707106769> : vector<8xf32>
  %z = arith.mulf %x, %k : vector<8xf32>
  %e = math.erf %z : vector<8xf32>
  %s = arith.addf %one, %e : vector<8xf32>
  %h = arith.mulf %x, %half : vector<8xf32>
  %y = arith.mulf %h, %s : vector<8xf32>
  return %y : vector<8xf32>
}
