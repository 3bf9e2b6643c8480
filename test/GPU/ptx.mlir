// kfuse-compile --emit=ptx: one .entry per kernel, named as in the report,
// for the default chip sm_75 with PTX ISA 8.0; a 64-bit flat index and the
// bounds check that masks the tail.
// RUN: kfuse-compile %kfuse_src/examples/add_relu.mlir --emit=ptx | FileCheck %s
// RUN: kfuse-compile %kfuse_src/examples/add_relu.mlir --emit=ptx --fusion=off | FileCheck %s --check-prefix=EAGER
// RUN: kfuse-compile %kfuse_src/examples/add_relu.mlir --emit=ptx --gpu-chip=sm_90 | FileCheck %s --check-prefix=SM90

// All kernels of a program are in one PTX module.
// CHECK: // kernel module @kfuse_kernels
// CHECK: .version 8.0
// CHECK: .target sm_75
// CHECK: .address_size 64
// CHECK-COUNT-1: .entry pointwise_add_relu_0(
// CHECK-NOT: .entry
// Thread t = blockIdx.x * 256 + threadIdx.x computes elements 4t..4t+3, in
// 64-bit indices: 128-bit vector loads and a vector store when all 4 are
// there, else a scalar loop to the end (the masked tail). The inputs, which
// the kernel only reads, go through the read-only cache (ld.global.nc,
// kf-mark-read-only-args); the add is contractible (no .rn: kf-contract-float-ops).
// CHECK: mov.u32 {{.*}}%ctaid.x
// CHECK: mov.u32 {{.*}}%tid.x
// CHECK: setp.le.u64 [[P:%p[0-9]+]]
// CHECK: @{{!?}}[[P]] bra
// CHECK-DAG: ld.global.nc.v4.b32
// CHECK-DAG: st.global.v4.b32
// CHECK-DAG: ld.global.nc.b32
// CHECK-DAG: st.global.b32
// CHECK-DAG: add.f32

// EAGER-COUNT-1: .entry pointwise_add_0(
// EAGER-COUNT-1: .entry pointwise_relu_1(
// EAGER-NOT: .entry

// SM90: .target sm_90
// SM90: .entry pointwise_add_relu_0(
