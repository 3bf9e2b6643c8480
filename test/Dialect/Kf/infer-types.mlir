// Result types are inferred: the generic form prints them. Each expected
// type follows from PyTorch's rules (see the kf dialect description).
// RUN: kfuse-opt %s -split-input-file -mlir-print-op-generic | FileCheck %s

// Shapes broadcast from the right; static 1 stretches.
// CHECK-LABEL: sym_name = "broadcast_shapes"
func.func @broadcast_shapes(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<4x1xf32>, %d: tensor<1x8xf32>, %e: tensor<2x1x8xf32>) {
  // CHECK: "kf.add"{{.*}} -> tensor<4x8xf32>
  %0 = kf.add %a, %b : tensor<4x8xf32>, tensor<8xf32>
  // CHECK: "kf.add"{{.*}} -> tensor<4x8xf32>
  %1 = kf.add %c, %d : tensor<4x1xf32>, tensor<1x8xf32>
  // CHECK: "kf.mul"{{.*}} -> tensor<2x4x8xf32>
  %2 = kf.mul %e, %c : tensor<2x1x8xf32>, tensor<4x1xf32>
  return
}

// -----

// A dynamic dim: against 1 it stays ?, against N it is N, against ? it is ?.
// CHECK-LABEL: sym_name = "dynamic_shapes"
func.func @dynamic_shapes(%a: tensor<?x8xf32>, %b: tensor<8xf32>, %c: tensor<?xf32>, %d: tensor<1xf32>, %e: tensor<4xf32>) {
  // CHECK: "kf.add"{{.*}} -> tensor<?x8xf32>
  %0 = kf.add %a, %b : tensor<?x8xf32>, tensor<8xf32>
  // CHECK: "kf.add"{{.*}} -> tensor<?xf32>
  %1 = kf.add %c, %d : tensor<?xf32>, tensor<1xf32>
  // CHECK: "kf.add"{{.*}} -> tensor<4xf32>
  %2 = kf.add %c, %e : tensor<?xf32>, tensor<4xf32>
  // CHECK: "kf.add"{{.*}} -> tensor<?xf32>
  %3 = kf.add %c, %c : tensor<?xf32>, tensor<?xf32>
  return
}

// -----

// torch.promote_types between dimensioned tensors.
// CHECK-LABEL: sym_name = "promotion"
func.func @promotion(%i32: tensor<8xi32>, %i64: tensor<8xi64>, %f16: tensor<8xf16>, %bf16: tensor<8xbf16>, %f32: tensor<8xf32>, %f64: tensor<8xf64>, %b: tensor<8xi1>) {
  // int with float: the float. CHECK: "kf.add"{{.*}} -> tensor<8xf16>
  %0 = kf.add %i64, %f16 : tensor<8xi64>, tensor<8xf16>
  // f16 with bf16: f32. CHECK: "kf.add"{{.*}} -> tensor<8xf32>
  %1 = kf.add %f16, %bf16 : tensor<8xf16>, tensor<8xbf16>
  // wider int wins. CHECK: "kf.mul"{{.*}} -> tensor<8xi64>
  %2 = kf.mul %i32, %i64 : tensor<8xi32>, tensor<8xi64>
  // wider float wins. CHECK: "kf.sub"{{.*}} -> tensor<8xf64>
  %3 = kf.sub %f32, %f64 : tensor<8xf32>, tensor<8xf64>
  // bool with int: the int. CHECK: "kf.add"{{.*}} -> tensor<8xi32>
  %4 = kf.add %b, %i32 : tensor<8xi1>, tensor<8xi32>
  // bool with bool stays bool. CHECK: "kf.add"{{.*}} -> tensor<8xi1>
  %5 = kf.add %b, %b : tensor<8xi1>, tensor<8xi1>
  // maximum promotes too. CHECK: "kf.maximum"{{.*}} -> tensor<8xf32>
  %6 = kf.maximum %i32, %f32 : tensor<8xi32>, tensor<8xf32>
  return
}

// -----

// 0-d tensors decide the dtype only from a higher category.
// CHECK-LABEL: sym_name = "zero_dim_promotion"
func.func @zero_dim_promotion(%f32: tensor<8xf32>, %i32: tensor<8xi32>, %b: tensor<8xi1>, %sf64: tensor<f64>, %sf32: tensor<f32>, %si64: tensor<i64>) {
  // same category: the dimensioned f32 wins. CHECK: "kf.add"{{.*}} -> tensor<8xf32>
  %0 = kf.add %f32, %sf64 : tensor<8xf32>, tensor<f64>
  // float scalar over int tensor: float. CHECK: "kf.add"{{.*}} -> tensor<8xf32>
  %1 = kf.add %i32, %sf32 : tensor<8xi32>, tensor<f32>
  // int scalar, int tensor: the tensor's i32. CHECK: "kf.add"{{.*}} -> tensor<8xi32>
  %2 = kf.add %i32, %si64 : tensor<8xi32>, tensor<i64>
  // bool tensor, int scalar: promotes to i64. CHECK: "kf.add"{{.*}} -> tensor<8xi64>
  %3 = kf.add %b, %si64 : tensor<8xi1>, tensor<i64>
  // both 0-d: ordinary promotion. CHECK: "kf.add"{{.*}} -> tensor<f64>
  %4 = kf.add %sf32, %sf64 : tensor<f32>, tensor<f64>
  return
}

// -----

// div is true division; comparisons give bool; where promotes its branches.
// CHECK-LABEL: sym_name = "special_dtypes"
func.func @special_dtypes(%i32: tensor<8xi32>, %i64: tensor<8xi64>, %f64: tensor<8xf64>, %f32: tensor<8xf32>, %c: tensor<4x1xi1>, %s: tensor<i64>) {
  // CHECK: "kf.div"{{.*}} -> tensor<8xf32>
  %0 = kf.div %i32, %i32 : tensor<8xi32>, tensor<8xi32>
  // CHECK: "kf.div"{{.*}} -> tensor<8xf64>
  %1 = kf.div %i64, %f64 : tensor<8xi64>, tensor<8xf64>
  // CHECK: "kf.lt"{{.*}} -> tensor<8xi1>
  %2 = kf.lt %f32, %i32 : tensor<8xf32>, tensor<8xi32>
  // CHECK: "kf.where"{{.*}} -> tensor<4x8xf32>
  %3 = kf.where %c, %f32, %s : tensor<4x1xi1>, tensor<8xf32>, tensor<i64>
  return
}

// -----

// Unary dtype rules.
// CHECK-LABEL: sym_name = "unary_dtypes"
func.func @unary_dtypes(%i32: tensor<8xi32>, %f16: tensor<8xf16>, %i64: tensor<8xi64>, %b: tensor<8xi1>) {
  // transcendental on int: f32. CHECK: "kf.exp"{{.*}} -> tensor<8xf32>
  %0 = kf.exp %i32 : tensor<8xi32>
  // ...and on bool. CHECK: "kf.sigmoid"{{.*}} -> tensor<8xf32>
  %1 = kf.sigmoid %b : tensor<8xi1>
  // float keeps its dtype. CHECK: "kf.sqrt"{{.*}} -> tensor<8xf16>
  %2 = kf.sqrt %f16 : tensor<8xf16>
  // relu, neg, abs keep ints. CHECK: "kf.relu"{{.*}} -> tensor<8xi64>
  %3 = kf.relu %i64 : tensor<8xi64>
  // CHECK: "kf.neg"{{.*}} -> tensor<8xi32>
  %4 = kf.neg %i32 : tensor<8xi32>
  // cast takes the target dtype. CHECK: "kf.cast"{{.*}} -> tensor<8xi1>
  %5 = kf.cast %f16 : tensor<8xf16> to i1
  return
}

// -----

// Reductions: dims removed (or kept as 1), sum of ints is i64.
// CHECK-LABEL: sym_name = "reductions"
func.func @reductions(%x: tensor<2x3x4xf32>, %i: tensor<4x8xi32>, %b: tensor<4x8xi1>, %s: tensor<f32>) {
  // CHECK: "kf.sum"{{.*}} -> tensor<4xi64>
  %0 = kf.sum %i dims [1] : tensor<4x8xi32>
  // CHECK: "kf.sum"{{.*}} -> tensor<i64>
  %1 = kf.sum %b : tensor<4x8xi1>
  // CHECK: "kf.mean"{{.*}} -> tensor<1x3x4xf32>
  %2 = kf.mean %x dims [0] keepdim : tensor<2x3x4xf32>
  // CHECK: "kf.max"{{.*}} -> tensor<3xf32>
  %3 = kf.max %x dims [0, 2] : tensor<2x3x4xf32>
  // CHECK: "kf.min"{{.*}} -> tensor<f32>
  %4 = kf.min %x : tensor<2x3x4xf32>
  // An empty dims list reduces every dim, as torch.amax(x, dim=[]).
  // CHECK: "kf.max"{{.*}} -> tensor<1x1xi32>
  %5 = kf.max %i dims [] keepdim : tensor<4x8xi32>
  // CHECK: "kf.sum"{{.*}} -> tensor<1x1x1xf32>
  %6 = kf.sum %x keepdim : tensor<2x3x4xf32>
  // A 0-d tensor reduces over dim 0. CHECK: "kf.sum"{{.*}} -> tensor<f32>
  %7 = kf.sum %s dims [0] : tensor<f32>
  return
}

// -----

// Data movement.
// CHECK-LABEL: sym_name = "data_movement"
func.func @data_movement(%x: tensor<4x8xf32>, %d: tensor<?x8xf32>, %one: tensor<1x1xf32>, %y: tensor<2x3x4xf32>, %v: tensor<8xf32>) {
  // CHECK: "kf.reshape"{{.*}} -> tensor<2x4x4xf32>
  %0 = kf.reshape %x [2, -1, 4] : tensor<4x8xf32>
  // CHECK: "kf.reshape"{{.*}} -> tensor<?xf32>
  %1 = kf.reshape %d [-1] : tensor<?x8xf32>
  // CHECK: "kf.reshape"{{.*}} -> tensor<f32>
  %2 = kf.reshape %one [] : tensor<1x1xf32>
  // CHECK: "kf.transpose"{{.*}} -> tensor<4x2x3xf32>
  %3 = kf.transpose %y [2, 0, 1] : tensor<2x3x4xf32>
  // CHECK: "kf.broadcast_to"{{.*}} -> tensor<3x4x8xf32>
  %4 = kf.broadcast_to %v [3, 4, -1] : tensor<8xf32>
  // CHECK: "kf.broadcast_to"{{.*}} -> tensor<5x?x8xf32>
  %5 = kf.broadcast_to %d [5, -1, 8] : tensor<?x8xf32>
  return
}

// -----

// matmul: batch dims broadcast, dtypes promote.
// CHECK-LABEL: sym_name = "matmul"
func.func @matmul(%a: tensor<2x1x4x8xf32>, %b: tensor<3x8x16xf32>, %i: tensor<4x8xi32>, %f: tensor<8x2xf32>, %d: tensor<?x8xf32>, %e: tensor<8x?xf32>) {
  // CHECK: "kf.matmul"{{.*}} -> tensor<2x3x4x16xf32>
  %0 = kf.matmul %a, %b : tensor<2x1x4x8xf32>, tensor<3x8x16xf32>
  // CHECK: "kf.matmul"{{.*}} -> tensor<4x2xf32>
  %1 = kf.matmul %i, %f : tensor<4x8xi32>, tensor<8x2xf32>
  // CHECK: "kf.matmul"{{.*}} -> tensor<?x?xf32>
  %2 = kf.matmul %d, %e : tensor<?x8xf32>, tensor<8x?xf32>
  return
}

// -----

// Composites keep the input type.
// CHECK-LABEL: sym_name = "composites"
func.func @composites(%x: tensor<4x8xbf16>) {
  // CHECK: "kf.softmax"{{.*}} -> tensor<4x8xbf16>
  %0 = kf.softmax %x dim 1 : tensor<4x8xbf16>
  // CHECK: "kf.log_softmax"{{.*}} -> tensor<4x8xbf16>
  %1 = kf.log_softmax %x dim 1 : tensor<4x8xbf16>
  // CHECK: "kf.layer_norm"{{.*}} -> tensor<4x8xbf16>
  %2 = kf.layer_norm %x normalized_shape [8] eps 1.0e-05 : tensor<4x8xbf16>
  return
}
