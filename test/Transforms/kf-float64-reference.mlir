// RUN: kfuse-opt %s -split-input-file -verify-diagnostics \
// RUN:   --kf-float64-reference=bounds=false | FileCheck %s --check-prefix=PROMOTE
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics \
// RUN:   --kf-float64-reference | FileCheck %s --check-prefix=BOUND
//
// kf-float64-reference: the program in f64 (f16, bf16 and f32 tensors
// promoted; integers and bool kept; the roundings the program asks for
// kept), and with `bounds` each result's error scale after the results.
// The constants are checked against values computed by hand: 2^-24 =
// 5.9604644775390625e-08 (f32's unit roundoff), 4 * 2^-24 =
// 2.384185791015625e-07, f32(0.1) = 0.100000001490116119384765625,
// f32(1e-5) = 9.99999974737875163555145263671875e-06, 2^-23 (f32's eps,
// rms_norm's default) = 1.1920928955078125e-07; inf is 0x7FF0000000000000.

// An f32 and an f16 argument become f64; the i32 sum stays i32.
// PROMOTE-LABEL: func.func @add
// PROMOTE-SAME: (%[[X:.*]]: tensor<4xf64>, %[[Y:.*]]: tensor<4xf64>, %[[I:.*]]: tensor<4xi32>) -> (tensor<4xf64>, tensor<4xi32>)
// PROMOTE: kf.add %[[X]], %[[Y]] : tensor<4xf64>, tensor<4xf64>
// PROMOTE: kf.add %[[I]], %[[I]] : tensor<4xi32>, tensor<4xi32>
// With bounds: the values, then one f64 scale each; the f32 add's is
// 2^-24 |v| (0 where v is infinite, +inf past f32's largest value), the
// exact i32 add's 0 (of the value's shape).
// BOUND-LABEL: func.func @add
// BOUND-SAME: -> (tensor<4xf64>, tensor<4xi32>, tensor<4xf64>, tensor<4xf64>)
// BOUND: %[[S:.*]] = kf.add %{{.*}}, %{{.*}} : tensor<4xf64>, tensor<4xf64>
// BOUND: kf.constant dense<3.4028234663852886E+38> : tensor<f64>
// BOUND: kf.constant dense<5.9604644775390625E-8> : tensor<f64>
// BOUND: %[[J:.*]] = kf.add %{{.*}}, %{{.*}} : tensor<4xi32>, tensor<4xi32>
// BOUND: %[[ZERO:.*]] = kf.constant dense<0.000000e+00> : tensor<f64>
// BOUND: %[[SAME:.*]] = kf.eq %[[J]], %[[J]]
// BOUND: %[[Z:.*]] = kf.where %[[SAME]], %[[ZERO]], %[[ZERO]]
// BOUND: return %[[S]], %[[J]], %{{.*}}, %[[Z]] : tensor<4xf64>, tensor<4xi32>, tensor<4xf64>, tensor<4xf64>
func.func @add(%x: tensor<4xf32>, %y: tensor<4xf16>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %s = kf.add %x, %y : tensor<4xf32>, tensor<4xf16>
  %j = kf.add %i, %i : tensor<4xi32>, tensor<4xi32>
  return %s, %j : tensor<4xf32>, tensor<4xi32>
}

// -----

// A cast to f16 or f32 still rounds there, then widens back; a cast to f64
// of f32 work is the f64 value; a cast to i32 truncates the f64 value.
// PROMOTE-LABEL: func.func @casts
// PROMOTE-SAME: (%[[X:.*]]: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4xi32>)
// PROMOTE: %[[H:.*]] = kf.cast %[[X]] : tensor<4xf64> to f16
// PROMOTE: %[[HW:.*]] = kf.cast %[[H]] : tensor<4xf16> to f64
// PROMOTE: %[[F:.*]] = kf.cast %[[HW]] : tensor<4xf64> to f32
// PROMOTE: %[[FW:.*]] = kf.cast %[[F]] : tensor<4xf32> to f64
// PROMOTE: %[[D:.*]] = kf.cast %[[X]] : tensor<4xf64> to f64
// PROMOTE: %[[I:.*]] = kf.cast %[[X]] : tensor<4xf64> to i32
// PROMOTE: return %[[FW]], %[[D]], %[[I]]
func.func @casts(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf64>, tensor<4xi32>) {
  %h = kf.cast %x : tensor<4xf32> to f16
  %w = kf.cast %h : tensor<4xf16> to f32
  %d = kf.cast %x : tensor<4xf32> to f64
  %i = kf.cast %x : tensor<4xf32> to i32
  return %w, %d, %i : tensor<4xf32>, tensor<4xf64>, tensor<4xi32>
}

// -----

// An f32 constant keeps its f32 value, exactly.
// PROMOTE-LABEL: func.func @constant
// PROMOTE: %[[C:.*]] = kf.constant dense<0.10000000149011612> : tensor<f64>
// PROMOTE: kf.mul %{{.*}}, %[[C]] : tensor<4xf64>, tensor<f64>
func.func @constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = kf.constant dense<0.1> : tensor<f32>
  %y = kf.mul %x, %c : tensor<4xf32>, tensor<f32>
  return %y : tensor<4xf32>
}

// -----

// exp of an integer computes in f32 in the program: in f64 here, its
// operand cast first.
// PROMOTE-LABEL: func.func @int_exp
// PROMOTE-SAME: (%[[I:.*]]: tensor<4xi32>) -> tensor<4xf64>
// PROMOTE: %[[W:.*]] = kf.cast %[[I]] : tensor<4xi32> to f64
// PROMOTE: kf.exp %[[W]] : tensor<4xf64>
func.func @int_exp(%i: tensor<4xi32>) -> tensor<4xf32> {
  %e = kf.exp %i : tensor<4xi32>
  return %e : tensor<4xf32>
}

// -----

// Composites are written out (layer_norm's eps is its f32 value), but
// softmax and argmax, whose scales need the whole op, stay.
// PROMOTE-LABEL: func.func @composites
// PROMOTE: kf.softmax %{{.*}} dim 1 : tensor<2x8xf64>
// PROMOTE: kf.mean %{{.*}} dims [-1] keepdim : tensor<2x8xf64>
// PROMOTE: kf.constant dense<9.9999997473787516E-6> : tensor<f64>
// PROMOTE: kf.rsqrt %{{.*}} : tensor<2x1xf64>
// PROMOTE: kf.argmax %{{.*}} dim 1 : tensor<2x8xf64>
// PROMOTE-NOT: kf.layer_norm
func.func @composites(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2xi64>) {
  %s = kf.softmax %x dim 1 : tensor<2x8xf32>
  %l = kf.layer_norm %x normalized_shape [8] eps 1.0e-05 : tensor<2x8xf32>
  %a = kf.argmax %x dim 1 : tensor<2x8xf32>
  return %s, %l, %a : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2xi64>
}

// -----

// rms_norm without eps takes its input's eps: f32's 2^-23, not f64's.
// PROMOTE-LABEL: func.func @rms_default_eps
// PROMOTE: kf.constant dense<1.1920928955078125E-7> : tensor<f64>
func.func @rms_default_eps(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %y = kf.rms_norm %x normalized_shape [8] : tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

// A sum of 8 f32 terms: the 8 roundings, 2^-24 sqrt(8) (sqrt(sum x^2) +
// |sum|), then the result's own.
// BOUND-LABEL: func.func @sum
// BOUND-SAME: -> (tensor<2xf64>, tensor<2xf64>)
// BOUND: %[[S:.*]] = kf.sum %[[X:.*]] dims [1] : tensor<2x8xf64>
// BOUND: %[[N:.*]] = kf.constant dense<8.000000e+00> : tensor<f64>
// BOUND: %[[SQ:.*]] = kf.mul %[[X]], %[[X]]
// BOUND: %[[SSQ:.*]] = kf.sum %[[SQ]] dims [1]
// BOUND: %[[NORM:.*]] = kf.sqrt %[[SSQ]]
// BOUND: %[[SPREAD:.*]] = kf.add %[[NORM]], %{{.*}}
// BOUND: %[[ROOT:.*]] = kf.sqrt %[[N]]
// BOUND: %[[ACC:.*]] = kf.mul %[[ROOT]], %[[SPREAD]]
// BOUND: kf.mul %[[ACC]], %{{.*}} : tensor<2xf64>, tensor<f64>
func.func @sum(%x: tensor<2x8xf32>) -> tensor<2xf32> {
  %s = kf.sum %x dims [1] : tensor<2x8xf32>
  return %s : tensor<2xf32>
}

// -----

// 1 / d of a computed d: e / (|d| (|d| - e)), infinite where 8 e (the
// check's reach) gets to |d|; then its own 4 u |v|.
// BOUND-LABEL: func.func @recip
// BOUND: %[[D:.*]] = kf.sub
// BOUND: %[[R:.*]] = kf.reciprocal %[[D]] : tensor<4xf64>
// BOUND: %[[Q:.*]] = kf.div %[[E:.*]], %{{.*}} : tensor<4xf64>, tensor<4xf64>
// BOUND: %[[EIGHT:.*]] = kf.constant dense<8.000000e+00> : tensor<f64>
// BOUND: %[[REACH:.*]] = kf.mul %[[E]], %[[EIGHT]]
// BOUND: %[[INF:.*]] = kf.constant dense<0x7FF0000000000000> : tensor<f64>
// BOUND: %[[NEAR:.*]] = kf.lt %[[REACH]], %{{.*}}
// BOUND: kf.where %[[NEAR]], %[[Q]], %[[INF]]
// BOUND: kf.constant dense<2.384185791015625E-7> : tensor<f64>
// BOUND: return %[[R]], %{{.*}}
func.func @recip(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %d = kf.sub %x, %y : tensor<4xf32>, tensor<4xf32>
  %r = kf.reciprocal %d : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A matmul's scale costs no matmul: row and column norms, an outer product.
// BOUND-LABEL: func.func @matmul
// BOUND: kf.matmul
// BOUND-NOT: kf.matmul
// BOUND: kf.sum %{{.*}} dims [1] keepdim : tensor<4x16xf64>
// BOUND: kf.max %{{.*}} dims [1] keepdim : tensor<4x16xf64>
// BOUND: kf.sum %{{.*}} dims [0] keepdim : tensor<16x8xf64>
// BOUND: kf.max %{{.*}} dims [0] keepdim : tensor<16x8xf64>
// BOUND: kf.constant dense<1.600000e+01> : tensor<f64>
// BOUND: kf.minimum %{{.*}}, %{{.*}} : tensor<4x8xf64>, tensor<4x8xf64>
// BOUND-NOT: kf.matmul
func.func @matmul(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %m = kf.matmul %a, %b : tensor<4x16xf32>, tensor<16x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

// Refused: a call (kfuse-compile inlines calls first); the reference is of
// straight-line kf programs only.
func.func private @callee(tensor<4xf32>) -> tensor<4xf32>
func.func @call(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{kf-float64-reference: 'func.call' has no float64 reference}}
  %y = func.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Refused: a hand-written kernel.
func.func @kernel(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{kf-float64-reference: 'kf.kernel' has no float64 reference}}
  %y = kf.kernel "k" kind pointwise -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

// A view's scale is the same view of its operands' scales, an exact
// operand's 0 made first (it must dominate the copy: kf_fuzz.py's seed 2701
// found the zeros made after the cat that read them).
// BOUND-LABEL: func.func @cat
// BOUND: %[[SAME:.*]] = kf.eq %[[B:.*]], %[[B]] : tensor<2x1xi32>, tensor<2x1xi32>
// BOUND: %[[Z:.*]] = kf.where %[[SAME]]
// BOUND: kf.cat %{{.*}}, %[[Z]] dim 1 : tensor<2x3xf64>, tensor<2x1xf64>
func.func @cat(%a: tensor<2x3xf32>, %b: tensor<2x1xi32>) -> tensor<2x4xf32> {
  %x = kf.exp %a : tensor<2x3xf32>
  %y = kf.cat %x, %b dim 1 : tensor<2x3xf32>, tensor<2x1xi32>
  return %y : tensor<2x4xf32>
}

// -----

// A scale taken from one broadcast operand alone has the value's shape
// (kf_fuzz.py's seed 3003: the maximum of a row and a matrix, and an i32
// add with one uncertain operand, returned scales of the row's shape).
// BOUND-LABEL: func.func @broadcast_scale
// BOUND-SAME: -> (tensor<2x2xf64>, tensor<2x2xi32>, tensor<2x2xf64>, tensor<2x2xf64>)
// BOUND: %[[M:.*]] = kf.minimum %{{.*}}, %{{.*}} : tensor<2x1xf64>, tensor<2x2xf64>
// BOUND: %[[EQ:.*]] = kf.eq %[[M]], %[[M]] : tensor<2x2xf64>, tensor<2x2xf64>
// BOUND: %[[Z:.*]] = kf.where %[[EQ]]
// BOUND: %[[E:.*]] = kf.add %{{.*}}, %[[Z]] : tensor<2x1xf64>, tensor<2x2xf64>
// BOUND: %[[I:.*]] = kf.add %{{.*}}, %{{.*}} : tensor<2x1xi32>, tensor<2x2xi32>
// BOUND: %[[IEQ:.*]] = kf.eq %[[I]], %[[I]] : tensor<2x2xi32>, tensor<2x2xi32>
// BOUND: return %[[M]], %[[I]], %[[E]], %{{.*}} : tensor<2x2xf64>, tensor<2x2xi32>, tensor<2x2xf64>, tensor<2x2xf64>
func.func @broadcast_scale(%r: tensor<2x1xf32>, %x: tensor<2x2xf32>, %j: tensor<2x2xi32>)
    -> (tensor<2x2xf32>, tensor<2x2xi32>) {
  %e = kf.exp %r : tensor<2x1xf32>
  %m = kf.minimum %e, %x : tensor<2x1xf32>, tensor<2x2xf32>
  %i = kf.cast %e : tensor<2x1xf32> to i32
  %s = kf.add %i, %j : tensor<2x1xi32>, tensor<2x2xi32>
  return %m, %s : tensor<2x2xf32>, tensor<2x2xi32>
}
