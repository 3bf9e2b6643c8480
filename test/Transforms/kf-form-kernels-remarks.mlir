// Every fusion decision is an optimization remark: passed when fused,
// missed with its reason when a boundary stays. The usual filters apply.
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels --remarks-filter=kf-form-kernels -o /dev/null 2>&1 | FileCheck %s
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels --remarks-filter-missed=kf-form-kernels -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels -o /dev/null 2>&1 | count 0

// Each remark is located at the consumer.
// CHECK-DAG: remarks.mlir:16:8: remark: [Passed] kernel-fusion | Category:kf-form-kernels:passed | Function=mlp | Reason="fused (matmul-epilogue)", Remark="matmul -> add fused into matmul_add_relu_0"
// CHECK-DAG: remarks.mlir:17:8: remark: [Passed] kernel-fusion | Category:kf-form-kernels:passed | Function=mlp | Reason="fused (pointwise)", Remark="add -> relu fused into matmul_add_relu_0"
// CHECK-DAG: remarks.mlir:18:8: remark: [Missed] kernel-fusion | Category:kf-form-kernels:missed | Function=mlp | Reason="matmul-boundary: matmul boundary", Remark="relu -> matmul: boundary matmul_add_relu_0 -> matmul_1"
// MISSED-NOT: [Passed]
// MISSED: remark: [Missed] kernel-fusion
// MISSED-NOT: [Passed]
func.func @mlp(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32>, %b1: tensor<16xf32>, %w2: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %0 = kf.matmul %x, %w1 : tensor<4x8xf32>, tensor<8x16xf32>
  %1 = kf.add %0, %b1 : tensor<4x16xf32>, tensor<16xf32>
  %2 = kf.relu %1 : tensor<4x16xf32>
  %3 = kf.matmul %2, %w2 : tensor<4x16xf32>, tensor<16x8xf32>
  return %3 : tensor<4x8xf32>
}
