// kf.index_select and kf.gather: the result types torch gives
// (index_select: input[:dim] + index + input[dim+1:], numpy take's rule for
// an index of any rank; gather: the index's shape), and the round trip.
// RUN: kfuse-opt %s -split-input-file -mlir-print-op-generic | FileCheck %s
// RUN: kfuse-opt %s -split-input-file | kfuse-opt -split-input-file | FileCheck %s --check-prefix=RT

// F.embedding: a table's rows for tokens of any shape.
// CHECK-LABEL: sym_name = "embedding"
// RT-LABEL: func.func @embedding
func.func @embedding(%table: tensor<100x16xf32>, %tokens: tensor<2x5xi64>, %one: tensor<i32>) {
  // CHECK: "kf.index_select"{{.*}} -> tensor<2x5x16xf32>
  // RT: kf.index_select %{{.*}}, %{{.*}} dim 0 : tensor<100x16xf32>, tensor<2x5xi64>
  %0 = kf.index_select %table, %tokens dim 0 : tensor<100x16xf32>, tensor<2x5xi64>
  // A 0-d index drops the dim (x[i] of a table).
  // CHECK: "kf.index_select"{{.*}} -> tensor<16xf32>
  %1 = kf.index_select %table, %one dim 0 : tensor<100x16xf32>, tensor<i32>
  return
}

// -----

// torch.index_select along an inner dim, negative dim, dynamic elsewhere.
// CHECK-LABEL: sym_name = "index_select_inner"
func.func @index_select_inner(%x: tensor<?x7x3xbf16>, %i: tensor<4xi32>) {
  // CHECK: "kf.index_select"{{.*}} -> tensor<?x4x3xbf16>
  %0 = kf.index_select %x, %i dim 1 : tensor<?x7x3xbf16>, tensor<4xi32>
  // CHECK: "kf.index_select"{{.*}} -> tensor<?x7x4xbf16>
  %1 = kf.index_select %x, %i dim -1 : tensor<?x7x3xbf16>, tensor<4xi32>
  return
}

// -----

// torch.gather: the index's shape, smaller than the input off the dim.
// CHECK-LABEL: sym_name = "gather"
// RT-LABEL: func.func @gather
func.func @gather(%x: tensor<4x8xf32>, %i: tensor<3x2xi64>, %d: tensor<?x8xf16>, %j: tensor<?x20xi64>) {
  // CHECK: "kf.gather"{{.*}} -> tensor<3x2xf32>
  // RT: kf.gather %{{.*}}, %{{.*}} dim 1 : tensor<4x8xf32>, tensor<3x2xi64>
  %0 = kf.gather %x, %i dim 1 : tensor<4x8xf32>, tensor<3x2xi64>
  // Larger along the gathered dim is allowed (each element is one read).
  // CHECK: "kf.gather"{{.*}} -> tensor<?x20xf16>
  %1 = kf.gather %d, %j dim -1 : tensor<?x8xf16>, tensor<?x20xi64>
  return
}
