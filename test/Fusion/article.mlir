// The article's programs at 1,000,000 elements, from examples/: add is one
// kernel of 3 transfers; add+relu goes from 2 kernels and 5 transfers
// (the intermediate written and read back) to 1 kernel and 3 transfers.
// f32: 4 bytes an element.
// RUN: kfuse-opt %kfuse_src/examples/add.mlir --kf-kernel-report -o /dev/null | FileCheck %s --check-prefix=ADD
// RUN: kfuse-opt %kfuse_src/examples/add_relu.mlir --kf-kernel-report -o /dev/null | FileCheck %s --check-prefix=ADDRELU
// RUN: kfuse-opt %kfuse_src/examples/add_relu.mlir --kf-kernel-report=format=json -o /dev/null | %python %s.py

// ADD-LABEL: function @add
// ADD-NEXT: eager fused
// ADD-NEXT: kernels 1 1
// ADD-NEXT: transfers 3 3
// ADD-NEXT: elements 3000000 3000000
// ADD-NEXT: bytes 12000000 12000000

// ADDRELU-LABEL: function @add_relu
// ADDRELU-NEXT: eager fused
// ADDRELU-NEXT: kernels 2 1
// ADDRELU-NEXT: transfers 5 3
// ADDRELU-NEXT: elements 5000000 3000000
// ADDRELU-NEXT: bytes 20000000 12000000
// ADDRELU-NEXT: fused kernels:
// ADDRELU-NEXT: pointwise_add_relu_0 (pointwise): ops add, relu
// ADDRELU-NEXT: reads arg0 1000000xf32, arg1 1000000xf32
// ADDRELU-NEXT: writes pointwise_add_relu_0#0 1000000xf32
// The GPU runs it flat: one thread per 4 elements.
// ADDRELU-NEXT: runs as flat
// ADDRELU-NEXT: boundaries: none
