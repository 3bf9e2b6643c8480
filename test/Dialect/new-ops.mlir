// The ops of issue 12 (clamp, exp2 ... floor_divide, var, std, rms_norm,
// batch_norm, argmax, argmin, cat): they parse, print back, and their
// result types follow PyTorch's rules (the generic form prints them).
// RUN: kfuse-opt %s -split-input-file | kfuse-opt -split-input-file | FileCheck %s --check-prefix=ROUND
// RUN: kfuse-opt %s -split-input-file -mlir-print-op-generic | FileCheck %s

// ROUND-LABEL: func.func @unary
// ROUND: kf.exp2 %{{.*}} : tensor<4xf32>
// ROUND: kf.log1p
// ROUND: kf.expm1
// ROUND: kf.erf
// ROUND: kf.floor
// ROUND: kf.ceil
// ROUND: kf.round
// CHECK-LABEL: sym_name = "unary"
func.func @unary(%x: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  %0 = kf.exp2 %x : tensor<4xf32>
  %1 = kf.log1p %x : tensor<4xf32>
  %2 = kf.expm1 %x : tensor<4xf32>
  %3 = kf.erf %x : tensor<4xf32>
  %4 = kf.floor %x : tensor<4xf32>
  %5 = kf.ceil %x : tensor<4xf32>
  %6 = kf.round %x : tensor<4xf32>
  // Transcendental ops of ints and bools compute in f32 (torch.exp2 of an
  // int tensor is float32); f16 stays f16.
  // CHECK: "kf.exp2"{{.*}} -> tensor<4xf32>
  %7 = kf.exp2 %i : tensor<4xi32>
  // CHECK: "kf.erf"{{.*}} -> tensor<4xf32>
  %8 = kf.erf %b : tensor<4xi1>
  // CHECK: "kf.log1p"{{.*}} -> tensor<4xf16>
  %9 = kf.log1p %h : tensor<4xf16>
  // floor/ceil/round of an int tensor is the int tensor (torch keeps int).
  // CHECK: "kf.floor"{{.*}} -> tensor<4xi32>
  %10 = kf.floor %i : tensor<4xi32>
  // CHECK: "kf.round"{{.*}} -> tensor<4xf16>
  %11 = kf.round %h : tensor<4xf16>
  return
}

// -----

// ROUND-LABEL: func.func @binary
// ROUND: kf.remainder %{{.*}}, %{{.*}} : tensor<4x8xi32>, tensor<8xi64>
// ROUND: kf.floor_divide
// CHECK-LABEL: sym_name = "binary"
func.func @binary(%a: tensor<4x8xi32>, %b: tensor<8xi64>, %x: tensor<4x8xf16>, %s: tensor<f64>) {
  // Operands broadcast and promote: i32 and i64 give i64.
  // CHECK: "kf.remainder"{{.*}} -> tensor<4x8xi64>
  %0 = kf.remainder %a, %b : tensor<4x8xi32>, tensor<8xi64>
  // A 0-d f64 against an f16 tensor of the same category: f16 wins.
  // CHECK: "kf.floor_divide"{{.*}} -> tensor<4x8xf16>
  %1 = kf.floor_divide %x, %s : tensor<4x8xf16>, tensor<f64>
  // An int tensor with a 0-d float: the float's dtype.
  // CHECK: "kf.floor_divide"{{.*}} -> tensor<4x8xf64>
  %2 = kf.floor_divide %a, %s : tensor<4x8xi32>, tensor<f64>
  return
}

// -----

// ROUND-LABEL: func.func @clamp
// The bounds print with their types: an integer bound is i64, a float f64.
// ROUND: kf.clamp %{{.*}} min(0.000000e+00 : f64) max(6.000000e+00 : f64) : tensor<8xf32>
// ROUND: kf.clamp %{{.*}} min(-3 : i64) : tensor<8xi32>
// ROUND: kf.clamp %{{.*}} max(2 : i64) : tensor<8xf16>
// CHECK-LABEL: sym_name = "clamp"
func.func @clamp(%x: tensor<8xf32>, %i: tensor<8xi32>, %h: tensor<8xf16>) {
  // CHECK: "kf.clamp"{{.*}} -> tensor<8xf32>
  %0 = kf.clamp %x min(0.0) max(6.0) : tensor<8xf32>
  // An int bound keeps an int tensor int.
  // CHECK: "kf.clamp"{{.*}} -> tensor<8xi32>
  %1 = kf.clamp %i min(-3) : tensor<8xi32>
  // A float bound on an int tensor gives f32 (torch.clamp(int, min=0.5)).
  // CHECK: "kf.clamp"{{.*}} -> tensor<8xf32>
  %2 = kf.clamp %i min(-3) max(2.5) : tensor<8xi32>
  // CHECK: "kf.clamp"{{.*}} -> tensor<8xf16>
  %3 = kf.clamp %h max(2) : tensor<8xf16>
  return
}

// -----

// ROUND-LABEL: func.func @moments
// ROUND: kf.var %{{.*}} dims [1] : tensor<4x8xf32>
// ROUND: kf.std %{{.*}} dims [-1] correction 0 keepdim : tensor<4x8xf32>
// CHECK-LABEL: sym_name = "moments"
func.func @moments(%x: tensor<4x8xf32>, %h: tensor<?x8xbf16>) {
  // CHECK: "kf.var"{{.*}} -> tensor<4xf32>
  %0 = kf.var %x dims [1] correction 1 : tensor<4x8xf32>
  // CHECK: "kf.std"{{.*}} -> tensor<4x1xf32>
  %1 = kf.std %x dims [-1] correction 0 keepdim : tensor<4x8xf32>
  // No dims: every dim.
  // CHECK: "kf.var"{{.*}} -> tensor<bf16>
  %2 = kf.var %h : tensor<?x8xbf16>
  return
}

// -----

// ROUND-LABEL: func.func @norms
// ROUND: kf.rms_norm %{{.*}} weight %{{.*}} : tensor<8xf32> normalized_shape [8] : tensor<4x8xf32>
// ROUND: kf.rms_norm %{{.*}} normalized_shape [4, 8] eps {{.*}} : tensor<4x8xf32>
// ROUND: kf.batch_norm %{{.*}}, %{{.*}}, %{{.*}} weight %{{.*}} : tensor<3xf32> bias %{{.*}} : tensor<3xf32> : tensor<2x3x5xf16>, tensor<3xf32>, tensor<3xf32>
// ROUND: kf.batch_norm %{{.*}}, %{{.*}}, %{{.*}} eps 1.000000e-03 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>
// CHECK-LABEL: sym_name = "norms"
func.func @norms(%x: tensor<4x8xf32>, %w: tensor<8xf32>, %h: tensor<2x3x5xf16>, %m: tensor<3xf32>, %v: tensor<3xf32>, %y: tensor<2x3xf32>) {
  // CHECK: "kf.rms_norm"{{.*}} -> tensor<4x8xf32>
  %0 = kf.rms_norm %x weight %w : tensor<8xf32> normalized_shape [8] : tensor<4x8xf32>
  %1 = kf.rms_norm %x normalized_shape [4, 8] eps 1.0e-06 : tensor<4x8xf32>
  // The result has the input's dtype (f32 statistics, f16 input).
  // CHECK: "kf.batch_norm"{{.*}} -> tensor<2x3x5xf16>
  %2 = kf.batch_norm %h, %m, %v weight %m : tensor<3xf32> bias %v : tensor<3xf32> : tensor<2x3x5xf16>, tensor<3xf32>, tensor<3xf32>
  %3 = kf.batch_norm %y, %m, %v eps 1.0e-03 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>
  return
}

// -----

// ROUND-LABEL: func.func @arg_extremes
// ROUND: kf.argmax %{{.*}} dim 1 : tensor<4x8xf32>
// ROUND: kf.argmin %{{.*}} dim -1 keepdim : tensor<4x8xi32>
// ROUND: kf.argmax %{{.*}} : tensor<4x8xf32>
// CHECK-LABEL: sym_name = "arg_extremes"
func.func @arg_extremes(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %s: tensor<f16>) {
  // The index is i64, whatever the input.
  // CHECK: "kf.argmax"{{.*}} -> tensor<4xi64>
  %0 = kf.argmax %x dim 1 : tensor<4x8xf32>
  // CHECK: "kf.argmin"{{.*}} -> tensor<4x1xi64>
  %1 = kf.argmin %i dim -1 keepdim : tensor<4x8xi32>
  // Without dim: the flattened tensor, a 0-d index (with keepdim, all 1s).
  // CHECK: "kf.argmax"{{.*}} -> tensor<i64>
  %2 = kf.argmax %x : tensor<4x8xf32>
  // CHECK: "kf.argmax"{{.*}} -> tensor<1x1xi64>
  %3 = kf.argmax %x keepdim : tensor<4x8xf32>
  // A 0-d input: index 0 of its one element.
  // CHECK: "kf.argmin"{{.*}} -> tensor<i64>
  %4 = kf.argmin %s dim 0 : tensor<f16>
  return
}

// -----

// ROUND-LABEL: func.func @cat
// ROUND: kf.cat %{{.*}}, %{{.*}} dim 0 : tensor<2x8xf32>, tensor<3x8xf32>
// CHECK-LABEL: sym_name = "cat"
func.func @cat(%a: tensor<2x8xf32>, %b: tensor<3x8xf32>, %i: tensor<2x?xi32>, %d: tensor<2x5xf64>, %e: tensor<2x0xf32>) {
  // CHECK: "kf.cat"{{.*}} -> tensor<5x8xf32>
  %0 = kf.cat %a, %b dim 0 : tensor<2x8xf32>, tensor<3x8xf32>
  // Dtypes promote (i32, f32 -> f32); a negative dim counts from the end.
  // CHECK: "kf.cat"{{.*}} -> tensor<2x16xf32>
  %1 = kf.cat %a, %a dim -1 : tensor<2x8xf32>, tensor<2x8xf32>
  // A dynamic dim other than the joined one: the static size wins.
  // CHECK: "kf.cat"{{.*}} -> tensor<4x8xf32>
  %2 = kf.cat %a, %i dim 0 : tensor<2x8xf32>, tensor<2x?xi32>
  // An empty tensor takes no place: f64 still promotes.
  // CHECK: "kf.cat"{{.*}} -> tensor<2x5xf64>
  %3 = kf.cat %e, %d dim 1 : tensor<2x0xf32>, tensor<2x5xf64>
  // One tensor: a copy.
  // CHECK: "kf.cat"{{.*}} -> tensor<2x8xf32>
  %4 = kf.cat %a dim 0 : tensor<2x8xf32>
  return
}
