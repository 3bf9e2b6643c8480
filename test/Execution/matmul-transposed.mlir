// matmuls reading a transposed operand in place (kf-to-linalg folds the
// transpose of the last two dims into the matmul's indexing map), executed
// on the CPU and compared with numpy: a.t() @ b, a @ w.t(), a.t() @ w.t(),
// batched x @ v.transpose(-1, -2), a 3-D lhs against a transposed 2-D
// weight, one transpose read as both operands, a transpose that is also
// returned (then also copied), and dynamic sizes (the matmul's sizes are
// read from the tensor underneath).
// The functions take arguments so that no transpose is folded into a
// constant before it reaches the matmul.
// RUN: kfuse-opt %s --kf-cpu-pipeline | %run-cpu | %numpy-check %s
// RUN: kfuse-opt %s --kf-to-linalg | FileCheck %s

// The maps a matmul reads its operands with: (m, n, k) loops.
// CHECK-DAG: #[[KM:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[KN:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[MN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[MK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[NK:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[BMK:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[BNK:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[NK2:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>

// NUMPY: A = np.arange(6, dtype=np.float32).reshape(3, 2) - 2
// NUMPY: B = np.arange(12, dtype=np.float32).reshape(3, 4) / 2
// NUMPY: W = np.arange(12, dtype=np.float32).reshape(4, 3) - 5
// NUMPY: X = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 4
// NUMPY: V = np.arange(40, dtype=np.float32).reshape(2, 5, 4) - 20
// NUMPY: C = np.arange(8, dtype=np.float32).reshape(2, 4) - 3
// NUMPY: Q = np.arange(9, dtype=np.float32).reshape(3, 3) - 4

func.func private @printMemrefF32(memref<*xf32>)
func.func @show(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// No transpose is left: the matmul reads %a at (k, m).
// CHECK-LABEL: func.func @at_b
// CHECK-NOT: kf.op = "transpose"
// CHECK: linalg.matmul indexing_maps = [#[[KM]], #[[KN]], #[[MN]]] {kf.op = "matmul"} ins(%arg0, %arg1 : tensor<3x2xf32>, tensor<3x4xf32>)
func.func @at_b(%a: tensor<3x2xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %t = kf.transpose %a [1, 0] : tensor<3x2xf32>
  %0 = kf.matmul %t, %b : tensor<2x3xf32>, tensor<3x4xf32>
  return %0 : tensor<2x4xf32>
}
// CHECK-LABEL: func.func @b_wt
// CHECK-NOT: kf.op = "transpose"
// CHECK: linalg.matmul indexing_maps = [#[[MK]], #[[NK]], #[[MN]]] {kf.op = "matmul"} ins(%arg0, %arg1 :
func.func @b_wt(%b: tensor<3x4xf32>, %w: tensor<2x4xf32>) -> tensor<3x2xf32> {
  %t = kf.transpose %w [1, 0] : tensor<2x4xf32>
  %0 = kf.matmul %b, %t : tensor<3x4xf32>, tensor<4x2xf32>
  return %0 : tensor<3x2xf32>
}
// CHECK-LABEL: func.func @at_wt
// CHECK-NOT: kf.op = "transpose"
// CHECK: linalg.matmul indexing_maps = [#[[KM]], #[[NK]], #[[MN]]] {kf.op = "matmul"} ins(%arg0, %arg1 :
func.func @at_wt(%a: tensor<3x2xf32>, %w: tensor<4x3xf32>) -> tensor<2x4xf32> {
  %ta = kf.transpose %a [1, 0] : tensor<3x2xf32>
  %tw = kf.transpose %w [1, 0] : tensor<4x3xf32>
  %0 = kf.matmul %ta, %tw : tensor<2x3xf32>, tensor<3x4xf32>
  return %0 : tensor<2x4xf32>
}
// The batched matmul (a generic) reads v at (batch, n, k).
// CHECK-LABEL: func.func @batched_vt
// CHECK-NOT: kf.op = "transpose"
// CHECK: linalg.generic {indexing_maps = [#[[BMK]], #[[BNK]], #{{.*}}], {{.*}} ins(%arg0, %arg1 : tensor<2x3x4xf32>, tensor<2x5x4xf32>)
func.func @batched_vt(%x: tensor<2x3x4xf32>, %v: tensor<2x5x4xf32>) -> tensor<2x3x5xf32> {
  %t = kf.transpose %v [0, 2, 1] : tensor<2x5x4xf32>
  %0 = kf.matmul %x, %t : tensor<2x3x4xf32>, tensor<2x4x5xf32>
  return %0 : tensor<2x3x5xf32>
}
// x @ w.t() with x batched, w 2-D (a linear layer's weight).
// CHECK-LABEL: func.func @linear
// CHECK-NOT: kf.op = "transpose"
// CHECK: linalg.generic {indexing_maps = [#[[BMK]], #[[NK2]], #{{.*}}], {{.*}} ins(%arg0, %arg1 : tensor<2x3x4xf32>, tensor<3x4xf32>)
func.func @linear(%x: tensor<2x3x4xf32>, %w: tensor<3x4xf32>) -> tensor<2x3x3xf32> {
  %t = kf.transpose %w [1, 0] : tensor<3x4xf32>
  %0 = kf.matmul %x, %t : tensor<2x3x4xf32>, tensor<4x3xf32>
  return %0 : tensor<2x3x3xf32>
}
// One transpose read as both operands: q.t() @ q.t().
// CHECK-LABEL: func.func @both_operands
// CHECK-NOT: kf.op = "transpose"
// CHECK: linalg.matmul indexing_maps = [#[[KM]], #[[NK]], #[[MN]]] {kf.op = "matmul"} ins(%arg0, %arg0 :
func.func @both_operands(%s: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %t = kf.transpose %s [1, 0] : tensor<3x3xf32>
  %0 = kf.matmul %t, %t : tensor<3x3xf32>, tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}
// The transpose is also returned: it stays a copy, the matmul still reads
// %a in place.
// CHECK-LABEL: func.func @returned_too
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<3x2xf32>) {{.*}} attrs = {kf.op = "transpose", kf.view}
// CHECK: %[[M:.*]] = linalg.matmul indexing_maps = [#[[KM]], #[[KN]], #[[MN]]] {kf.op = "matmul"} ins(%arg0, %arg1 :
// CHECK: return %[[M]], %[[T]]
func.func @returned_too(%a: tensor<3x2xf32>, %b: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>) {
  %t = kf.transpose %a [1, 0] : tensor<3x2xf32>
  %0 = kf.matmul %t, %b : tensor<2x3xf32>, tensor<3x4xf32>
  return %0, %t : tensor<2x4xf32>, tensor<2x3xf32>
}
// Dynamic sizes: m, k and the check that the inner dims agree come from
// %a's dims, read where the view's were.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: kf.op = "transpose"
// CHECK: %[[K1:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[K2:.*]] = tensor.dim %arg1, %c0
// CHECK: arith.cmpi eq, %[[K1]], %[[K2]]
// CHECK: cf.assert
// CHECK: %[[M:.*]] = tensor.dim %arg0, %c1
// CHECK: tensor.empty(%[[M]]) : tensor<?x4xf32>
// CHECK: linalg.matmul indexing_maps = [#[[KM]], #[[KN]], #[[MN]]] {kf.op = "matmul"} ins(%arg0, %arg1 : tensor<?x?xf32>, tensor<?x4xf32>)
func.func @dynamic(%a: tensor<?x?xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %t = kf.transpose %a [1, 0] : tensor<?x?xf32>
  %0 = kf.matmul %t, %b : tensor<?x?xf32>, tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

func.func @main() {
  %a = kf.constant dense<[[-2.0, -1.0], [0.0, 1.0], [2.0, 3.0]]> : tensor<3x2xf32>
  %b = kf.constant dense<[[0.0, 0.5, 1.0, 1.5], [2.0, 2.5, 3.0, 3.5], [4.0, 4.5, 5.0, 5.5]]> : tensor<3x4xf32>
  %c = kf.constant dense<[[-3.0, -2.0, -1.0, 0.0], [1.0, 2.0, 3.0, 4.0]]> : tensor<2x4xf32>
  %q = kf.constant dense<[[-4.0, -3.0, -2.0], [-1.0, 0.0, 1.0], [2.0, 3.0, 4.0]]> : tensor<3x3xf32>
  %w = kf.constant dense<[[-5.0, -4.0, -3.0], [-2.0, -1.0, 0.0], [1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<4x3xf32>
  %x = kf.constant dense<[[[0.0, 0.25, 0.5, 0.75], [1.0, 1.25, 1.5, 1.75], [2.0, 2.25, 2.5, 2.75]], [[3.0, 3.25, 3.5, 3.75], [4.0, 4.25, 4.5, 4.75], [5.0, 5.25, 5.5, 5.75]]]> : tensor<2x3x4xf32>
  %v = kf.constant dense<[[[-20.0, -19.0, -18.0, -17.0], [-16.0, -15.0, -14.0, -13.0], [-12.0, -11.0, -10.0, -9.0], [-8.0, -7.0, -6.0, -5.0], [-4.0, -3.0, -2.0, -1.0]], [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0]]]> : tensor<2x5x4xf32>

  // NUMPY: expect(A.T @ B)
  %0 = call @at_b(%a, %b) : (tensor<3x2xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %u0 = tensor.cast %0 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%u0) : (tensor<*xf32>) -> ()
  // NUMPY: expect(B @ C.T)
  %1 = call @b_wt(%b, %c) : (tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<3x2xf32>
  %u1 = tensor.cast %1 : tensor<3x2xf32> to tensor<*xf32>
  call @show(%u1) : (tensor<*xf32>) -> ()
  // NUMPY: expect(A.T @ W.T)
  %2 = call @at_wt(%a, %w) : (tensor<3x2xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %u2 = tensor.cast %2 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%u2) : (tensor<*xf32>) -> ()
  // NUMPY: expect(X @ V.transpose(0, 2, 1))
  %3 = call @batched_vt(%x, %v) : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  %u3 = tensor.cast %3 : tensor<2x3x5xf32> to tensor<*xf32>
  call @show(%u3) : (tensor<*xf32>) -> ()
  // NUMPY: expect(X @ B.T)
  %4 = call @linear(%x, %b) : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x3xf32>
  %u4 = tensor.cast %4 : tensor<2x3x3xf32> to tensor<*xf32>
  call @show(%u4) : (tensor<*xf32>) -> ()
  // NUMPY: expect(Q.T @ Q.T)
  %5 = call @both_operands(%q) : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %u5 = tensor.cast %5 : tensor<3x3xf32> to tensor<*xf32>
  call @show(%u5) : (tensor<*xf32>) -> ()
  // NUMPY: expect(A.T @ B); expect(A.T)
  %6:2 = call @returned_too(%a, %b) : (tensor<3x2xf32>, tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>)
  %u6 = tensor.cast %6#0 : tensor<2x4xf32> to tensor<*xf32>
  call @show(%u6) : (tensor<*xf32>) -> ()
  %u7 = tensor.cast %6#1 : tensor<2x3xf32> to tensor<*xf32>
  call @show(%u7) : (tensor<*xf32>) -> ()
  // NUMPY: expect(A.T @ B)
  %da = tensor.cast %a : tensor<3x2xf32> to tensor<?x?xf32>
  %db = tensor.cast %b : tensor<3x4xf32> to tensor<?x4xf32>
  %8 = call @dynamic(%da, %db) : (tensor<?x?xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %u8 = tensor.cast %8 : tensor<?x4xf32> to tensor<*xf32>
  call @show(%u8) : (tensor<*xf32>) -> ()
  return
}
