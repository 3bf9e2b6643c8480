// kf-kernel-register-budget: every kernel with a known block size gets
// nvvm.minctasm = 1 (PTX .minnctapersm 1), so that ptxas may use the
// registers its block size allows instead of spilling for an occupancy of
// its own choosing; functions that are not kernels, and kernels without a
// known block size (no .maxntid: the hint would say nothing), are left as
// they are.
// RUN: kfuse-opt %s --kf-kernel-register-budget | FileCheck %s
// In the PTX, each kernel of the compiled matmuls holds .maxntid and
// .minnctapersm 1 (ptxas-spills.mlir and matmul-simt.mlir check that
// ptxas then spills nothing: the f32 matmul tile spilled 4 bytes without
// the hint, sm_80, 64 registers).
// RUN: kfuse-compile %S/matmul-batched.mlir --emit=ptx --gpu-chip=sm_80 -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX-COUNT-5: .maxntid 16, 16, 1
// PTX-NEXT: .minnctapersm 1

// CHECK-LABEL: gpu.func @tile(
// CHECK-SAME: known_block_size = array<i32: 16, 16, 1>
// CHECK-SAME: nvvm.minctasm = 1 : i32
// CHECK-LABEL: gpu.func @no_block_size(
// CHECK-NOT: nvvm.minctasm
// CHECK-LABEL: gpu.func @device_function(
// CHECK-NOT: nvvm.minctasm
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tile(%m: memref<4xf32>) kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
      gpu.return
    }
    gpu.func @no_block_size(%m: memref<4xf32>) kernel {
      gpu.return
    }
    gpu.func @device_function(%x: f32) -> f32 {
      gpu.return %x : f32
    }
  }
}
