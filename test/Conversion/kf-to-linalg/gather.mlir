// kf.index_select and kf.gather lower to one linalg.generic over the
// result that reads the index through its map and the input at the loaded
// index (tensor.extract), yielding NaN for an index outside [0, n).
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg | FileCheck %s

// An embedding: loops (b, t, j); the tokens at (b, t), the table at
// (token, j).
// CHECK-DAG:   #[[TOK:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @embedding
// CHECK-SAME:    (%[[T:.*]]: tensor<100x16xf32>, %[[I:.*]]: tensor<2x5xi64>)
// CHECK:         linalg.generic {indexing_maps = [#[[TOK]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:      ins(%[[I]] : tensor<2x5xi64>) {{.*}} attrs = {kf.op = "index_select"}
// CHECK:         ^bb0(%[[IDX:.*]]: i64, %{{.*}}: f32):
// CHECK-DAG:       %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG:       %[[N:.*]] = arith.constant 100 : i64
// CHECK-DAG:       %[[GE:.*]] = arith.cmpi sge, %[[IDX]]
// CHECK-DAG:       %[[LT:.*]] = arith.cmpi slt, %[[IDX]], %[[N]]
// CHECK:           %[[OK:.*]] = arith.andi
// CHECK:           %[[SAFE:.*]] = arith.select %[[OK]], %[[IDX]]
// CHECK:           %[[ROW:.*]] = arith.index_cast %[[SAFE]] : i64 to index
// CHECK:           %[[J:.*]] = linalg.index 2 : index
// CHECK:           %[[V:.*]] = tensor.extract %[[T]][%[[ROW]], %[[J]]] : tensor<100x16xf32>
// CHECK:           %[[R:.*]] = arith.select %[[OK]], %[[V]], %[[NAN]] : f32
// CHECK:           linalg.yield %[[R]]
// CHECK:         } -> tensor<2x5x16xf32>
func.func @embedding(%table: tensor<100x16xf32>, %tokens: tensor<2x5xi64>) -> tensor<2x5x16xf32> {
  %0 = kf.index_select %table, %tokens dim 0 : tensor<100x16xf32>, tensor<2x5xi64>
  return %0 : tensor<2x5x16xf32>
}

// -----

// index_select along dim 1 with a dynamic leading dim: the result's ? is
// the input's, the loops (a, k, c) read the input at (a, index, c).
// CHECK:       #[[MID:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @inner_dim
// CHECK-SAME:    (%[[X:.*]]: tensor<?x7x3xf16>, %[[I:.*]]: tensor<4xi32>)
// CHECK:         %[[D:.*]] = tensor.dim %[[X]], %c0
// CHECK:         tensor.empty(%[[D]]) : tensor<?x4x3xf16>
// CHECK:         linalg.generic {indexing_maps = [#[[MID]], {{.*}}]
// CHECK:           arith.constant 7 : i32
// CHECK-DAG:       %[[A:.*]] = linalg.index 0 : index
// CHECK-DAG:       %[[C:.*]] = linalg.index 2 : index
// CHECK:           tensor.extract %[[X]][%[[A]], %{{.*}}, %[[C]]] : tensor<?x7x3xf16>
func.func @inner_dim(%x: tensor<?x7x3xf16>, %i: tensor<4xi32>) -> tensor<?x4x3xf16> {
  %0 = kf.index_select %x, %i dim 1 : tensor<?x7x3xf16>, tensor<4xi32>
  return %0 : tensor<?x4x3xf16>
}

// -----

// A table with no rows: every index is out of range, nothing is read.
// CHECK-LABEL: func.func @empty_table
// CHECK:         linalg.generic
// CHECK-NOT:       tensor.extract
// CHECK:           linalg.yield %{{.*}} : f32
func.func @empty_table(%table: tensor<0x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  %0 = kf.index_select %table, %i dim 0 : tensor<0x4xf32>, tensor<3xi64>
  return %0 : tensor<3x4xf32>
}

// -----

// torch.gather over the index's space; a dynamic index dim off the
// gathered dim is checked against the input's at run time.
// CHECK-LABEL: func.func @gather
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>, %[[I:.*]]: tensor<?x2xi64>)
// CHECK:         %[[N:.*]] = tensor.dim %[[I]], %c0
// CHECK:         %[[FITS:.*]] = arith.cmpi ule, %{{.*}}, %{{.*}}
// CHECK:         cf.assert %[[FITS]], "kf.gather: the index is larger than the input in a dim other than the indexed one"
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[I]] : tensor<?x2xi64>) {{.*}} attrs = {kf.op = "gather"}
// CHECK:           %[[R:.*]] = linalg.index 0 : index
// CHECK:           tensor.extract %[[X]][%[[R]], %{{.*}}] : tensor<4x8xf32>
// CHECK:         } -> tensor<?x2xf32>
func.func @gather(%x: tensor<4x8xf32>, %i: tensor<?x2xi64>) -> tensor<?x2xf32> {
  %0 = kf.gather %x, %i dim 1 : tensor<4x8xf32>, tensor<?x2xi64>
  return %0 : tensor<?x2xf32>
}
