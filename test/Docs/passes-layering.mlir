// The layers of passes/ as docs/ARCHITECTURE.md draws them ("The house of
// passes/"): every #include runs to a lower layer, so there is no circle
// and nothing includes upward; no folder holds more than 20 source files
// (.cpp and .h),
// no source file is over 500 lines. The script fails naming the include
// or the file; FileCheck then pins the arrows that exist now.
// RUN: %python %s.py %kfuse_src | FileCheck %s

// CHECK-NOT: error:
// CHECK: layer 0: passes passes/target
// CHECK: layer 4: passes/gpu/attention passes/host/mappings
// CHECK: layer 6: passes/pipelines
// The host reuses the GPU's emitters; the GPU folder never includes the
// host's, and fusion never the GPU's.
// CHECK-NOT: arrow passes/fusion -> passes/gpu
// CHECK-NOT: arrow passes/gpu -> passes/host
// The attention kernel is built from the matmul's parts.
// CHECK: arrow passes/gpu/attention -> passes/gpu/matmul
// CHECK: arrow passes/host/mappings -> passes/gpu/rows
// CHECK-NOT: arrow passes/report -> passes/gpu
