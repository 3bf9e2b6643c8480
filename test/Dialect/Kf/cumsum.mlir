// kf.cumsum: the result type torch.cumsum gives (the input's shape; floats
// keep their dtype, ints and bool give i64), and the round trip.
// RUN: kfuse-opt %s -split-input-file -mlir-print-op-generic | FileCheck %s
// RUN: kfuse-opt %s -split-input-file | kfuse-opt -split-input-file | FileCheck %s --check-prefix=RT

// CHECK-LABEL: sym_name = "floats"
// RT-LABEL: func.func @floats
func.func @floats(%x: tensor<4x8xf32>, %h: tensor<?x3xf16>, %b: tensor<5xbf16>) {
  // CHECK: "kf.cumsum"{{.*}}dim = 1 : i64{{.*}} -> tensor<4x8xf32>
  // RT: kf.cumsum %{{.*}} dim 1 : tensor<4x8xf32>
  %0 = kf.cumsum %x dim 1 : tensor<4x8xf32>
  // A negative dim counts from the end; dynamic sizes stay.
  // CHECK: "kf.cumsum"{{.*}}dim = -2 : i64{{.*}} -> tensor<?x3xf16>
  // RT: kf.cumsum %{{.*}} dim -2 : tensor<?x3xf16>
  %1 = kf.cumsum %h dim -2 : tensor<?x3xf16>
  // CHECK: "kf.cumsum"{{.*}} -> tensor<5xbf16>
  %2 = kf.cumsum %b dim 0 : tensor<5xbf16>
  return
}

// -----

// Integers and bool sum to i64, as torch.cumsum's.
// CHECK-LABEL: sym_name = "integers"
func.func @integers(%m: tensor<2x16xi1>, %i: tensor<7xi32>, %l: tensor<7xi64>) {
  // CHECK: "kf.cumsum"{{.*}} -> tensor<2x16xi64>
  %0 = kf.cumsum %m dim -1 : tensor<2x16xi1>
  // CHECK: "kf.cumsum"{{.*}} -> tensor<7xi64>
  %1 = kf.cumsum %i dim 0 : tensor<7xi32>
  // CHECK: "kf.cumsum"{{.*}} -> tensor<7xi64>
  %2 = kf.cumsum %l dim 0 : tensor<7xi64>
  return
}
