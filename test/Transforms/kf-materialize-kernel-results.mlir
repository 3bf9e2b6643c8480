// RUN: kfuse-opt %s -split-input-file --kf-materialize-kernel-results | FileCheck %s
// The pass refuses nothing: it only adds copies, so there is no negative
// case; what it must leave alone is below.

// A kernel left yielding a value made outside it (the canonicalizer erased
// its identity copy) gets the copy back, inside the kernel.
// CHECK-LABEL: func.func @yields_outside
// CHECK:         %[[S:.*]] = tensor.extract_slice
// CHECK:         kf.kernel "pointwise_slice_0" kind pointwise mapping flat -> tensor<4x2xf32>
// CHECK-NEXT:      %[[E:.*]] = tensor.empty() : tensor<4x2xf32>
// CHECK-NEXT:      %[[C:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<4x2xf32>) outs(%[[E]] : tensor<4x2xf32>) attrs = {kf.op = "copy"}
// CHECK-NEXT:      ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:        linalg.yield %[[IN]] : f32
// CHECK:           kf.yield %[[C]] : tensor<4x2xf32>
func.func @yields_outside(%x: tensor<4x6xf32>) -> tensor<4x2xf32> {
  %s = tensor.extract_slice %x[0, 0] [4, 2] [1, 1] : tensor<4x6xf32> to tensor<4x2xf32>
  %r = kf.kernel "pointwise_slice_0" kind pointwise mapping flat -> tensor<4x2xf32> {
    kf.yield %s : tensor<4x2xf32>
  }
  return %r : tensor<4x2xf32>
}

// -----

// A function argument yielded as it is, with a dynamic dim: the copy's
// empty tensor takes the size from tensor.dim.
// CHECK-LABEL: func.func @yields_argument
// CHECK:         kf.kernel
// CHECK:           %[[D:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x3xf16>
// CHECK:           tensor.empty(%[[D]]) : tensor<?x3xf16>
// CHECK:           linalg.generic {{.*}} ins(%arg0 : tensor<?x3xf16>)
func.func @yields_argument(%x: tensor<?x3xf16>) -> tensor<?x3xf16> {
  %r = kf.kernel "pointwise_copy_0" kind pointwise mapping flat -> tensor<?x3xf16> {
    kf.yield %x : tensor<?x3xf16>
  }
  return %r : tensor<?x3xf16>
}

// -----

// A kernel that computes what it yields is left as it is.
// CHECK-LABEL: func.func @computed
// CHECK:         linalg.generic
// CHECK-SAME:      kf.op = "exp"
// CHECK-NOT:     kf.op = "copy"
// CHECK:         return
#id = affine_map<(d0) -> (d0)>
func.func @computed(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = kf.kernel "pointwise_exp_0" kind pointwise mapping flat -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) attrs = {kf.op = "exp"} {
    ^bb0(%in: f32, %out: f32):
      %v = math.exp %in : f32
      linalg.yield %v : f32
    } -> tensor<8xf32>
    kf.yield %y : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// A kernel on buffers (after bufferization) yields nothing to copy.
// CHECK-LABEL: func.func @buffers
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @buffers(%x: memref<8xf32>) {
  kf.kernel "pointwise_copy_0" kind pointwise mapping flat {
    kf.yield
  }
  return
}

// -----

// A cast (the canonicalizer's tensor.cast between static and dynamic
// shapes) of a value the kernel computes is no work: the kernel yields
// the value and the cast follows the kernel. Copied inside, the copy
// would be an op of its own: in a row chain after the final reduction,
// where an op over the rows runs as one value (a copy there wrote only
// its first element; random program p4_46 of seed 4), and after a
// transposed epilogue an op in the result's order, which no row mapping
// runs (Regression/transposed-result-cast.mlir).
// CHECK-LABEL: func.func @yields_cast
// CHECK:         %[[R:.*]]:2 = kf.kernel "reduction_max_sum_0" {{.*}} -> tensor<3xf32>, tensor<f32>
// CHECK:         %[[M:.*]] = linalg.generic {{.*}} attrs = {kf.op = "max"}
// CHECK-NOT:     kf.op = "copy"
// CHECK:         kf.yield %[[M]], %{{.*}} : tensor<3xf32>, tensor<f32>
// CHECK:         %[[CAST:.*]] = tensor.cast %[[R]]#0 : tensor<3xf32> to tensor<?xf32>
// CHECK:         return %[[CAST]], %[[R]]#1
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#all = affine_map<(d0) -> (d0)>
#none = affine_map<(d0) -> ()>
func.func @yields_cast(%x: tensor<3x4xf32>) -> (tensor<?xf32>, tensor<f32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %r:2 = kf.kernel "reduction_max_sum_0" kind reduction mapping row_chain -> tensor<?xf32>, tensor<f32> {
    %e = tensor.empty() : tensor<3xf32>
    %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
    %m = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x4xf32>) outs(%f : tensor<3xf32>) attrs = {kf.op = "max"} {
    ^bb0(%in: f32, %out: f32):
      %v = arith.maximumf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<3xf32>
    %c = tensor.cast %m : tensor<3xf32> to tensor<?xf32>
    %e0 = tensor.empty() : tensor<f32>
    %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
    %s = linalg.generic {indexing_maps = [#all, #none], iterator_types = ["reduction"]} ins(%m : tensor<3xf32>) outs(%f0 : tensor<f32>) attrs = {kf.op = "sum"} {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %out, %in : f32
      linalg.yield %v : f32
    } -> tensor<f32>
    kf.yield %c, %s : tensor<?xf32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<?xf32>, tensor<f32>
}
