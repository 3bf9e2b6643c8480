// Row kernels with the row on chip (passes/gpu/rows/RowOnChip.h), executed by
// the emulation (kf-gpu-emulation-pipeline: each launch's threads on the
// host, shuffles and barriers kept), against numpy's float64 values of the
// same ops on the same inputs (row-on-chip-run.mlir.py writes the program
// and checks what it printed): softmax, log_softmax, layer_norm (weight
// and bias) and rms_norm (weight), f32 and f16 (f16 math in f32, rounded
// once), at row lengths 1, 7 (a part of a vector), 40 (one warp), 1024 (two
// warps of 16), 4096 + 3 (512 threads of 9, scalar accesses: 4099 is odd) and
// 65536 (no bucket fits: the looped form, softmax's max and sum in one
// online pass, layer_norm's mean and variance in one pass of Welford /
// Chan merges). From 1024 on also rows masked with -inf (the running max
// starts at -inf) and layer_norm around 1000 (the variance of values far
// from 0). Each function takes its input as an argument, so the kernel
// loads it from memory.
// RUN: %python %s.py program > %t.mlir
// RUN: kfuse-opt %t.mlir --kf-gpu-emulation-pipeline | %run-cpu > %t.out
// RUN: %python %s.py check < %t.out | FileCheck %s
// The same with the blocks run from the last to the first.
// RUN: kfuse-opt %t.mlir --kf-gpu-emulation-reversed-pipeline | %run-cpu > %t.rev.out
// RUN: %python %s.py check < %t.rev.out | FileCheck %s
// CHECK: softmax f32 3x1: matches numpy
// CHECK: rms_norm f16 3x40: matches numpy
// CHECK: layer_norm f32 3x4099: matches numpy
// CHECK: softmax f32 2x65536: matches numpy
// CHECK: softmax masked f32 2x65536: matches numpy
// CHECK: layer_norm offset f32 2x65536: matches numpy
// CHECK: layer_norm f16 2x65536: matches numpy
// CHECK: row-on-chip: 66 arrays match numpy
