// A dynamic dim never broadcasts: sizes 3 and 4 meeting at run time stop
// the program with the lowering's message instead of reading out of bounds.
// The failed assert prints with puts and then aborts: stdbuf keeps the
// message from dying in stdout's buffer when it is a pipe.
// RUN: kfuse-opt %s --kf-cpu-pipeline | not --crash stdbuf -o0 %run-cpu 2>&1 | FileCheck %s

// CHECK: kf.add: dynamic dim 0 of operand #1 does not match the broadcast size (a dynamic dim never broadcasts)

func.func @kernel(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = kf.add %a, %b : tensor<?xf32>, tensor<?xf32>
  return %0 : tensor<?xf32>
}

func.func @main() {
  %a = kf.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = kf.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %ad = tensor.cast %a : tensor<3xf32> to tensor<?xf32>
  %bd = tensor.cast %b : tensor<4xf32> to tensor<?xf32>
  %r = call @kernel(%ad, %bd) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return
}
