// RUN: kfuse-opt %s -split-input-file --kf-to-linalg | FileCheck %s

// add+relu: two eager kernels, two linalg.generic.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @add_relu
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<8xf32>
// CHECK: %[[ADD:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel"]}
// CHECK-SAME: outs(%[[E0]] : tensor<8xf32>) attrs = {kf.op = "add"}
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[ADD]] : tensor<8xf32>)
// CHECK-SAME: attrs = {kf.op = "relu"}
// CHECK: %[[Z:.*]] = arith.constant 0.0
// CHECK: %[[NEG:.*]] = arith.cmpf olt, %{{.*}}, %[[Z]] : f32
// CHECK: arith.select %[[NEG]], %[[Z]], %{{.*}} : f32
// CHECK-NOT: linalg.generic
func.func @add_relu(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.add %a, %b : tensor<8xf32>, tensor<8xf32>
  %1 = kf.relu %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// Broadcasting is an indexing map, never a materialised tensor: the bias
// row is read with (d0, d1) -> (d1).
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @bias_add
// CHECK-NOT: linalg.broadcast
// CHECK: linalg.generic {indexing_maps = [#[[ID2]], #[[ROW]], #[[ID2]]]
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8xf32>)
func.func @bias_add(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = kf.add %x, %b : tensor<4x8xf32>, tensor<8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Static size-1 dims that stretch are collapsed away (no data moves); the
// f16 operand is widened in the body, as PyTorch computes f16 in f32.
// CHECK-DAG: #[[D0:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[D1:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @outer_add
// CHECK: %[[C0:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<4x1xf32> into tensor<4xf32>
// CHECK: %[[C1:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<1x8xf16> into tensor<8xf16>
// CHECK: linalg.generic {indexing_maps = [#[[D0]], #[[D1]], #{{.*}}]
// CHECK-SAME: ins(%[[C0]], %[[C1]] : tensor<4xf32>, tensor<8xf16>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f16, %{{.*}}: f32):
// CHECK: %[[W:.*]] = arith.extf %[[Y]] : f16 to f32
// CHECK: arith.addf %[[X]], %[[W]] : f32
func.func @outer_add(%a: tensor<4x1xf32>, %b: tensor<1x8xf16>) -> tensor<4x8xf32> {
  %0 = kf.add %a, %b : tensor<4x1xf32>, tensor<1x8xf16>
  return %0 : tensor<4x8xf32>
}

// -----

// A 0-d operand is read with an empty map.
// CHECK-DAG: #[[S:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @scalar_operand
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[S]], #{{.*}}]
// CHECK: arith.mulf
func.func @scalar_operand(%a: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xf32> {
  %0 = kf.mul %a, %s : tensor<8xf32>, tensor<f32>
  return %0 : tensor<8xf32>
}

// -----

// Integer true division converts to float in the body; bool add is `or`.
// CHECK-LABEL: func.func @int_div_bool_add
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK: arith.divf
// CHECK: arith.ori %{{.*}}, %{{.*}} : i1
func.func @int_div_bool_add(%a: tensor<8xi32>, %b: tensor<8xi1>) -> (tensor<8xf32>, tensor<8xi1>) {
  %0 = kf.div %a, %a : tensor<8xi32>, tensor<8xi32>
  %1 = kf.add %b, %b : tensor<8xi1>, tensor<8xi1>
  return %0, %1 : tensor<8xf32>, tensor<8xi1>
}

// -----

// Comparisons: ordered except ne (NaN != NaN is true, as in PyTorch); ints
// compare signed.
// CHECK-LABEL: func.func @compares
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf une
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf ole
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf oge
// CHECK: arith.cmpi slt
func.func @compares(%a: tensor<8xf32>, %i: tensor<8xi32>) -> (tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>) {
  %0 = kf.eq %a, %a : tensor<8xf32>, tensor<8xf32>
  %1 = kf.ne %a, %a : tensor<8xf32>, tensor<8xf32>
  %2 = kf.lt %a, %a : tensor<8xf32>, tensor<8xf32>
  %3 = kf.le %a, %a : tensor<8xf32>, tensor<8xf32>
  %4 = kf.gt %a, %a : tensor<8xf32>, tensor<8xf32>
  %5 = kf.ge %a, %a : tensor<8xf32>, tensor<8xf32>
  %6 = kf.lt %i, %i : tensor<8xi32>, tensor<8xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>
}

// -----

// where keeps its i1 condition and converts the branches to the result.
// CHECK-LABEL: func.func @where
// CHECK: ^bb0(%[[C:.*]]: i1, %[[A:.*]]: f32, %[[B:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[BF:.*]] = arith.sitofp %[[B]] : i64 to f32
// CHECK: arith.select %[[C]], %[[A]], %[[BF]] : f32
func.func @where(%c: tensor<8xi1>, %a: tensor<8xf32>, %b: tensor<i64>) -> tensor<8xf32> {
  %0 = kf.where %c, %a, %b : tensor<8xi1>, tensor<8xf32>, tensor<i64>
  return %0 : tensor<8xf32>
}

// -----

// Each unary op is one linalg.generic with its scalar formula.
// CHECK-LABEL: func.func @unary
// CHECK: arith.negf
// CHECK: math.absf
// CHECK: math.exp
// CHECK: math.log
// CHECK: math.sqrt
// CHECK: math.rsqrt
// CHECK: math.tanh
// sigmoid = 1 / (1 + exp(-x))
// CHECK: arith.negf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK: math.sin
// CHECK: math.cos
// CHECK: arith.divf
// gelu = 0.5 * x * (1 + erf(x / sqrt(2)))
// CHECK: math.erf
// silu = x * sigmoid(x)
// CHECK: math.exp
// CHECK: arith.mulf
// CHECK-NOT: linalg.fill
func.func @unary(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = kf.neg %x : tensor<8xf32>
  %1 = kf.abs %x : tensor<8xf32>
  %2 = kf.exp %x : tensor<8xf32>
  %3 = kf.log %x : tensor<8xf32>
  %4 = kf.sqrt %x : tensor<8xf32>
  %5 = kf.rsqrt %x : tensor<8xf32>
  %6 = kf.tanh %x : tensor<8xf32>
  %7 = kf.sigmoid %x : tensor<8xf32>
  %8 = kf.sin %x : tensor<8xf32>
  %9 = kf.cos %x : tensor<8xf32>
  %10 = kf.reciprocal %x : tensor<8xf32>
  %11 = kf.gelu %x : tensor<8xf32>
  %12 = kf.silu %x : tensor<8xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// cast: float to int truncates; to bool is x != 0; bool to float is 0 or 1.
// CHECK-LABEL: func.func @casts
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.cmpf une
// CHECK: arith.uitofp %{{.*}} : i1 to f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @casts(%x: tensor<8xf32>, %b: tensor<8xi1>) -> (tensor<8xi32>, tensor<8xi1>, tensor<8xf32>, tensor<8xbf16>) {
  %0 = kf.cast %x : tensor<8xf32> to i32
  %1 = kf.cast %x : tensor<8xf32> to i1
  %2 = kf.cast %b : tensor<8xi1> to f32
  %3 = kf.cast %x : tensor<8xf32> to bf16
  return %0, %1, %2, %3 : tensor<8xi32>, tensor<8xi1>, tensor<8xf32>, tensor<8xbf16>
}

// -----

// A dynamic dim never broadcasts: where it meets another dim, a runtime
// check says so.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[D0:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?xf32>
// CHECK: %[[D1:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?xf32>
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[D1]], %[[D0]] : index
// CHECK: cf.assert %[[EQ]], "kf.add: dynamic dim 0 of operand #1 does not match the broadcast size (a dynamic dim never broadcasts)"
// CHECK: tensor.empty(%[[D0]]) : tensor<?xf32>
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: arith.cmpi eq, %{{.*}}, %[[C4]] : index
// CHECK: cf.assert
// CHECK: tensor.empty() : tensor<4xf32>
func.func @dynamic(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kf.add %a, %b : tensor<?xf32>, tensor<?xf32>
  %1 = kf.add %0, %c : tensor<?xf32>, tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// broadcast_to read by an elementwise op costs nothing: one generic.
// CHECK-LABEL: func.func @broadcast_absorbed
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
func.func @broadcast_absorbed(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = kf.broadcast_to %b [4, 8] : tensor<8xf32>
  %1 = kf.add %a, %0 : tensor<4x8xf32>, tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// A broadcast_to that is returned must exist: a copy with a broadcast read.
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @broadcast_materialized
// CHECK: linalg.generic {indexing_maps = [#[[ROW]], #{{.*}}]
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
func.func @broadcast_materialized(%b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = kf.broadcast_to %b [4, 8] : tensor<8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// The remaining binary ops: float and integer flavours. maximum/minimum
// propagate NaN (maximumf/minimumf), as torch.maximum does; integer pow is
// math.ipowi.
// CHECK-LABEL: func.func @binary_rest
// CHECK: arith.subf
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: math.powf
// CHECK: arith.subi
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: math.ipowi
// CHECK: arith.andi %{{.*}}, %{{.*}} : i1
func.func @binary_rest(%a: tensor<8xf32>, %i: tensor<8xi64>, %b: tensor<8xi1>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi64>, tensor<8xi64>, tensor<8xi64>, tensor<8xi64>, tensor<8xi1>) {
  %0 = kf.sub %a, %a : tensor<8xf32>, tensor<8xf32>
  %1 = kf.maximum %a, %a : tensor<8xf32>, tensor<8xf32>
  %2 = kf.minimum %a, %a : tensor<8xf32>, tensor<8xf32>
  %3 = kf.pow %a, %a : tensor<8xf32>, tensor<8xf32>
  %4 = kf.sub %i, %i : tensor<8xi64>, tensor<8xi64>
  %5 = kf.maximum %i, %i : tensor<8xi64>, tensor<8xi64>
  %6 = kf.minimum %i, %i : tensor<8xi64>, tensor<8xi64>
  %7 = kf.pow %i, %i : tensor<8xi64>, tensor<8xi64>
  %8 = kf.mul %b, %b : tensor<8xi1>, tensor<8xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi64>, tensor<8xi64>, tensor<8xi64>, tensor<8xi64>, tensor<8xi1>
}

// -----

// pow by a constant exponent that PyTorch's kernels compute without pow is
// those ops here too, not only under --canonicalize: x^3 as (x * x) * x,
// x^-0.5 as rsqrt (a pow on the host is a scalar libm call a lane: the
// GELU of transformers' GPT-2 computes pow(x, 3.0)). Other exponents keep
// math.powf.
// CHECK-LABEL: func.func @pow_by_constant
// CHECK-NOT: math.powf
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK: math.rsqrt
// CHECK: math.powf
// CHECK-NOT: math.powf
// CHECK: return
func.func @pow_by_constant(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %c3 = kf.constant dense<3.0> : tensor<f32>
  %0 = kf.pow %x, %c3 : tensor<8xf32>, tensor<f32>
  %ch = kf.constant dense<-0.5> : tensor<f32>
  %1 = kf.pow %x, %ch : tensor<8xf32>, tensor<f32>
  %c25 = kf.constant dense<2.5> : tensor<f32>
  %2 = kf.pow %x, %c25 : tensor<8xf32>, tensor<f32>
  return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
