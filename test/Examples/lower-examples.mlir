// Every program in examples/ lowers to linalg, with one linalg op per eager
// kernel (a linalg.fill that starts an accumulator belongs to its kernel).
//
// add: 1 kernel.
// RUN: kfuse-opt %kfuse_src/examples/add.mlir --kf-to-linalg | FileCheck %s --check-prefix=ADD
// ADD-LABEL: func.func @add
// ADD-COUNT-1: linalg.generic
// ADD-NOT: linalg.generic
//
// add_relu: 2 kernels, the add's result read back by the relu.
// RUN: kfuse-opt %kfuse_src/examples/add_relu.mlir --kf-to-linalg | FileCheck %s --check-prefix=ADDRELU
// ADDRELU-LABEL: func.func @add_relu
// ADDRELU: %[[T:.*]] = linalg.generic
// ADDRELU: arith.addf
// ADDRELU: linalg.generic
// ADDRELU-SAME: ins(%[[T]] : tensor<1000000xf32>)
// ADDRELU: arith.cmpf olt
// ADDRELU: arith.select
// ADDRELU-NOT: linalg.generic
//
// softmax: max, sub, exp, sum, div = 5 eager kernels.
// RUN: kfuse-opt %kfuse_src/examples/softmax.mlir --kf-to-linalg | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX-LABEL: func.func @softmax
// SOFTMAX-COUNT-5: linalg.generic
// SOFTMAX-NOT: linalg.generic
//
// mlp: matmul, add, relu, matmul, add = 2 matmuls and 3 generics.
// RUN: kfuse-opt %kfuse_src/examples/mlp.mlir --kf-to-linalg | FileCheck %s --check-prefix=MLP
// MLP-LABEL: func.func @mlp
// MLP: linalg.matmul
// MLP: linalg.generic
// MLP: linalg.generic
// MLP: linalg.matmul
// MLP: linalg.generic
// MLP-NOT: linalg.generic
//
// And every example runs through the whole CPU pipeline to LLVM.
// RUN: for f in %kfuse_src/examples/*.mlir; do kfuse-opt $f --kf-cpu-pipeline -o /dev/null || exit 1; done
