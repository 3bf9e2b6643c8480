// RUN: kfuse-opt %s -split-input-file -canonicalize | FileCheck %s

// x * 1, x / 1, x - 0 and x + (-0.0) are x.
// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>, %[[I:.*]]: tensor<8xi32>)
// CHECK-NOT: kf.
// CHECK: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[I]], %[[I]]
func.func @identities(%x: tensor<8xf32>, %i: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi32>, tensor<8xi32>) {
  %one = kf.constant dense<1.0> : tensor<8xf32>
  %zero = kf.constant dense<0.0> : tensor<f32>
  %negzero = kf.constant dense<-0.0> : tensor<f32>
  %one64 = kf.constant dense<1.0> : tensor<f64>
  %izero = kf.constant dense<0> : tensor<i32>
  %ione = kf.constant dense<1> : tensor<8xi32>
  %0 = kf.mul %x, %one : tensor<8xf32>, tensor<8xf32>
  %1 = kf.div %x, %one : tensor<8xf32>, tensor<8xf32>
  %2 = kf.sub %x, %zero : tensor<8xf32>, tensor<f32>
  %3 = kf.add %x, %negzero : tensor<8xf32>, tensor<f32>
  // A 0-d f64 one does not promote an f32 tensor: still x.
  %4 = kf.mul %x, %one64 : tensor<8xf32>, tensor<f64>
  %5 = kf.add %i, %izero : tensor<8xi32>, tensor<i32>
  %6 = kf.mul %ione, %i : tensor<8xi32>, tensor<8xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi32>, tensor<8xi32>
}

// -----

// x + 0.0 is not x for floats (-0.0 + 0.0 is +0.0), so it stays.
// CHECK-LABEL: func.func @plus_positive_zero_stays
// CHECK: kf.add
func.func @plus_positive_zero_stays(%x: tensor<8xf32>) -> tensor<8xf32> {
  %zero = kf.constant dense<0.0> : tensor<f32>
  %0 = kf.add %x, %zero : tensor<8xf32>, tensor<f32>
  return %0 : tensor<8xf32>
}

// -----

// A one that broadcasts x to a bigger shape is not an identity.
// CHECK-LABEL: func.func @broadcasting_one_stays
// CHECK: kf.mul
func.func @broadcasting_one_stays(%x: tensor<8xf32>) -> tensor<4x8xf32> {
  %one = kf.constant dense<1.0> : tensor<4x8xf32>
  %0 = kf.mul %x, %one : tensor<8xf32>, tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Small constants fold: [1, 2] + [3, 4] = [4, 6]; [2, 3] * [5, 7] = [10, 21].
// CHECK-LABEL: func.func @constant_folding
// CHECK-DAG: kf.constant dense<[4.000000e+00, 6.000000e+00]> : tensor<2xf32>
// CHECK-DAG: kf.constant dense<[10, 21]> : tensor<2xi64>
// CHECK-NOT: kf.add
// CHECK-NOT: kf.mul
func.func @constant_folding() -> (tensor<2xf32>, tensor<2xi64>) {
  %a = kf.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = kf.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %c = kf.add %a, %b : tensor<2xf32>, tensor<2xf32>
  %d = kf.constant dense<[2, 3]> : tensor<2xi64>
  %e = kf.constant dense<[5, 7]> : tensor<2xi64>
  %f = kf.mul %d, %e : tensor<2xi64>, tensor<2xi64>
  return %c, %f : tensor<2xf32>, tensor<2xi64>
}

// -----

// transpose(transpose(x)) with inverse permutations is x; otherwise the
// permutations compose: [1, 2, 0] then [1, 2, 0] reads x's dims [2, 0, 1].
// CHECK-LABEL: func.func @transposes
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[T:.*]] = kf.transpose %[[X]] [2, 0, 1] : tensor<2x3x4xf32>
// CHECK-NOT: kf.transpose
// CHECK: return %[[X]], %[[T]], %[[X]]
func.func @transposes(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  %a = kf.transpose %x [1, 2, 0] : tensor<2x3x4xf32>
  %b = kf.transpose %a [2, 0, 1] : tensor<3x4x2xf32>
  %c = kf.transpose %a [1, 2, 0] : tensor<3x4x2xf32>
  %d = kf.transpose %x [0, 1, 2] : tensor<2x3x4xf32>
  return %b, %c, %d : tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<2x3x4xf32>
}

// -----

// reshape(reshape(x)) is one reshape of x; a reshape to the same type is x;
// a reshaped constant is a constant.
// CHECK-LABEL: func.func @reshapes
// CHECK-SAME: (%[[X:.*]]: tensor<4x6xf32>)
// CHECK-DAG: %[[C:.*]] = kf.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK-DAG: %[[R:.*]] = kf.reshape %[[X]] [3, 8] : tensor<4x6xf32>
// CHECK: return %[[R]], %[[X]], %[[C]]
func.func @reshapes(%x: tensor<4x6xf32>) -> (tensor<3x8xf32>, tensor<4x6xf32>, tensor<2x2xi32>) {
  %a = kf.reshape %x [24] : tensor<4x6xf32>
  %b = kf.reshape %a [3, 8] : tensor<24xf32>
  %c = kf.reshape %x [4, -1] : tensor<4x6xf32>
  %k = kf.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %d = kf.reshape %k [2, 2] : tensor<4xi32>
  return %b, %c, %d : tensor<3x8xf32>, tensor<4x6xf32>, tensor<2x2xi32>
}

// -----

// cast to the same dtype and neg(neg(x)) are x.
// CHECK-LABEL: func.func @cast_neg
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>)
// CHECK-NOT: kf.
// CHECK: return %[[X]], %[[X]]
func.func @cast_neg(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = kf.cast %x : tensor<8xf32> to f32
  %1 = kf.neg %x : tensor<8xf32>
  %2 = kf.neg %1 : tensor<8xf32>
  return %0, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// An elementwise op reads through broadcast_to: the broadcast disappears.
// CHECK-LABEL: func.func @absorb_broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-NOT: kf.broadcast_to
// CHECK: kf.add %[[B]], %[[A]] : tensor<8xf32>, tensor<4x8xf32>
func.func @absorb_broadcast(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = kf.broadcast_to %b [4, 8] : tensor<8xf32>
  %1 = kf.add %0, %a : tensor<4x8xf32>, tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// Absorbing this broadcast would turn a dimensioned f64 tensor back into a
// 0-d one, which no longer wins dtype promotion: it must stay.
// CHECK-LABEL: func.func @broadcast_kept_for_dtype
// CHECK: kf.broadcast_to
// CHECK: kf.add {{.*}} : tensor<8xf64>, tensor<8xf32>
func.func @broadcast_kept_for_dtype(%s: tensor<f64>, %a: tensor<8xf32>) -> tensor<8xf64> {
  %0 = kf.broadcast_to %s [8] : tensor<f64>
  %1 = kf.add %0, %a : tensor<8xf64>, tensor<8xf32>
  return %1 : tensor<8xf64>
}

// -----

// A broadcast splat constant is a bigger splat constant.
// CHECK-LABEL: func.func @broadcast_constant
// CHECK: kf.constant dense<2.000000e+00> : tensor<3x4xf32>
// CHECK-NOT: kf.broadcast_to
func.func @broadcast_constant() -> tensor<3x4xf32> {
  %c = kf.constant dense<2.0> : tensor<4xf32>
  %0 = kf.broadcast_to %c [3, 4] : tensor<4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// pow by a constant exponent that PyTorch's pow kernels compute without pow
// (2, 3, 0.5, -0.5, -1, -2): the same ops here, vector code on the CPU.
// CHECK-LABEL: func.func @pow_by_constant
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>, %[[I:.*]]: tensor<8xi32>, %[[H:.*]]: tensor<8xf16>)
// CHECK-NOT: kf.pow
// CHECK: %[[SQ:.*]] = kf.mul %[[X]], %[[X]] : tensor<8xf32>, tensor<8xf32>
// CHECK: %[[SQ1:.*]] = kf.mul %[[X]], %[[X]] : tensor<8xf32>, tensor<8xf32>
// CHECK: %[[CUBE:.*]] = kf.mul %[[SQ1]], %[[X]] : tensor<8xf32>, tensor<8xf32>
// CHECK: %[[ROOT:.*]] = kf.sqrt %[[X]] : tensor<8xf32>
// CHECK: %[[RROOT:.*]] = kf.rsqrt %[[X]] : tensor<8xf32>
// CHECK: %[[INV:.*]] = kf.reciprocal %[[X]] : tensor<8xf32>
// CHECK: %[[SQ2:.*]] = kf.mul %[[X]], %[[X]] : tensor<8xf32>, tensor<8xf32>
// CHECK: %[[INVSQ:.*]] = kf.reciprocal %[[SQ2]] : tensor<8xf32>
// CHECK: %[[ISQ:.*]] = kf.mul %[[I]], %[[I]] : tensor<8xi32>, tensor<8xi32>
// CHECK: %[[HSQ:.*]] = kf.mul %[[H]], %[[H]] : tensor<8xf16>, tensor<8xf16>
// CHECK: %[[HCUBE:.*]] = kf.mul %[[HSQ]], %[[H]] : tensor<8xf16>, tensor<8xf16>
// CHECK: return %[[SQ]], %[[CUBE]], %[[ROOT]], %[[RROOT]], %[[INV]], %[[INVSQ]], %[[ISQ]], %[[HCUBE]]
func.func @pow_by_constant(%x: tensor<8xf32>, %i: tensor<8xi32>, %h: tensor<8xf16>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi32>, tensor<8xf16>) {
  %two = kf.constant dense<2.0> : tensor<f32>
  %three = kf.constant dense<3.0> : tensor<f32>
  %half = kf.constant dense<0.5> : tensor<f32>
  %mhalf = kf.constant dense<-0.5> : tensor<f32>
  %mone = kf.constant dense<-1.0> : tensor<f32>
  %mtwo = kf.constant dense<-2.0> : tensor<8xf32>
  %itwo = kf.constant dense<2> : tensor<i32>
  %0 = kf.pow %x, %two : tensor<8xf32>, tensor<f32>
  %1 = kf.pow %x, %three : tensor<8xf32>, tensor<f32>
  %2 = kf.pow %x, %half : tensor<8xf32>, tensor<f32>
  %3 = kf.pow %x, %mhalf : tensor<8xf32>, tensor<f32>
  %4 = kf.pow %x, %mone : tensor<8xf32>, tensor<f32>
  %5 = kf.pow %x, %mtwo : tensor<8xf32>, tensor<8xf32>
  %6 = kf.pow %i, %itwo : tensor<8xi32>, tensor<i32>
  // A 0-d f32 exponent does not promote an f16 tensor.
  %7 = kf.pow %h, %three : tensor<8xf16>, tensor<f32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi32>, tensor<8xf16>
}

// -----

// Kept as pow: another exponent (1.5), an exponent that is not constant,
// an integer tensor with a float exponent (the result is float: promotion),
// an integer with a negative exponent (no reciprocal of integers), a
// tensor exponent that broadcasts x (the result's shape is not x's).
// CHECK-LABEL: func.func @pow_kept
// CHECK-COUNT-5: kf.pow
func.func @pow_kept(%x: tensor<8xf32>, %y: tensor<8xf32>, %i: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi32>, tensor<2x8xf32>) {
  %c = kf.constant dense<1.5> : tensor<f32>
  %two = kf.constant dense<2.0> : tensor<f32>
  %imone = kf.constant dense<-1> : tensor<i32>
  %wide = kf.constant dense<2.0> : tensor<2x8xf32>
  %0 = kf.pow %x, %c : tensor<8xf32>, tensor<f32>
  %1 = kf.pow %x, %y : tensor<8xf32>, tensor<8xf32>
  %2 = kf.pow %i, %two : tensor<8xi32>, tensor<f32>
  %3 = kf.pow %i, %imone : tensor<8xi32>, tensor<i32>
  %4 = kf.pow %x, %wide : tensor<8xf32>, tensor<2x8xf32>
  return %0, %1, %2, %3, %4 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi32>, tensor<2x8xf32>
}
