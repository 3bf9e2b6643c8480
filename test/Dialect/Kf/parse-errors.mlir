// Malformed kf syntax is a located parse error, never a crash.
// RUN: not kfuse-opt %s -split-input-file 2>&1 | FileCheck %s

// A missing operand type list.
// CHECK: parse-errors.mlir:[[@LINE+2]]:{{[0-9]+}}: error: expected ':'
func.func @missing_types(%a: tensor<8xf32>) {
  %0 = kf.add %a, %a
  return
}

// -----

// reshape needs its shape list.
// CHECK: parse-errors.mlir:[[@LINE+2]]:{{[0-9]+}}: error:
func.func @reshape_no_shape(%a: tensor<8xf32>) {
  %0 = kf.reshape %a : tensor<8xf32>
  return
}

// -----

// An unknown kf op.
// CHECK: parse-errors.mlir:[[@LINE+2]]:{{[0-9]+}}: error: custom op 'kf.frobnicate' is unknown
func.func @unknown(%a: tensor<8xf32>) {
  %0 = kf.frobnicate %a : tensor<8xf32>
  return
}

// -----

// A scalar (non-tensor) operand type.
// CHECK: parse-errors.mlir:[[@LINE+2]]:{{[0-9]+}}: error: custom op 'kf.exp' invalid kind of type specified
func.func @scalar_type(%a: f32) {
  %0 = kf.exp %a : f32
  return
}
