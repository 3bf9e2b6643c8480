// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-to-linalg --kf-form-kernels \
// RUN:   --kf-plant-mutation=kind=off-by-one | FileCheck %s --check-prefix=OBO
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-to-linalg --kf-form-kernels \
// RUN:   --kf-plant-mutation=kind=drop-term | FileCheck %s --check-prefix=DROP
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-to-linalg --kf-form-kernels \
// RUN:   --kf-plant-mutation=kind=f16-accumulator | FileCheck %s --check-prefix=F16
// RUN: not kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels \
// RUN:   --kf-plant-mutation=kind=off-by-two 2>&1 | FileCheck %s --check-prefix=KIND
//
// kf-plant-mutation (test only): one known bug in a kernel of each
// function, for the tests of kfuse-run --check (test/Runtime/check-float64.mlir).

// x + b summed over rows: one reduction kernel, with the add as its prologue.
// off-by-one: x is read at row (d0 + 1) mod 4 (its columns are the reduced
// dim: a rotation along it would not change the sum).
// OBO: #[[SHIFTED:.*]] = affine_map<(d0, d1) -> ((d0 + 1) mod 4, d1)>
// OBO-LABEL: func.func @sum_of_sum
// OBO: linalg.generic {indexing_maps = [#[[SHIFTED]],
// drop-term: the prologue's add yields x alone (the accumulation stays).
// DROP-LABEL: func.func @sum_of_sum
// DROP: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32, %[[OUT:.*]]: f32):
// DROP: %[[ACC:.*]] = arith.addf %[[OUT]], %[[X]] : f32
// DROP: linalg.yield %[[ACC]]
// f16-accumulator: the running sum is rounded to f16 at each step.
// F16-LABEL: func.func @sum_of_sum
// F16: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %[[OUT:.*]]: f32):
// F16: %[[ACC:.*]] = arith.addf %[[OUT]], %{{.*}} : f32
// F16: %[[H:.*]] = arith.truncf %[[ACC]] : f32 to f16
// F16: %[[W:.*]] = arith.extf %[[H]] : f16 to f32
// F16: linalg.yield %[[W]] : f32
func.func @sum_of_sum(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4xf32> {
  %y = kf.add %x, %b : tensor<4x8xf32>, tensor<8xf32>
  %s = kf.sum %y dims [1] : tensor<4x8xf32>
  return %s : tensor<4xf32>
}

// -----

// A function with no place for the mutation is refused, so that a test
// cannot pass because nothing was planted: relu has no add and no sum
// (nor has its 1-element dim a neighbour).
// expected-error @below {{kf-plant-mutation: no kernel of @relu has a place for}}
func.func @relu(%x: tensor<1xf32>) -> tensor<1xf32> {
  %y = kf.relu %x : tensor<1xf32>
  return %y : tensor<1xf32>
}

// KIND: error: kf-plant-mutation: kind must be off-by-one, drop-term or f16-accumulator, got 'off-by-two'
