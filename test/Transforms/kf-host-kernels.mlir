// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-host-kernels | FileCheck %s

// A kernel becomes a host function that runs one block: its arguments,
// then grid x/y/z, block x/y/z and block id x/y/z; threads are loops,
// x innermost. The module becomes a gpu.binary naming the functions.
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func @kfuse_kernels::@fill
// CHECK: func.func @__kfuse_host_kfuse_kernels_fill(%[[M:.*]]: memref<?xindex>, %[[GX:.*]]: index, %{{.*}}: index, %{{.*}}: index, %[[BX:.*]]: index, %[[BY:.*]]: index, %[[BZ:.*]]: index, %[[IX:.*]]: index, %{{.*}}: index, %{{.*}}: index)
// CHECK-SAME: attributes {kf.host_kernel = "fill"}
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[BZ]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[BY]]
// CHECK: scf.for %[[TX:.*]] = %{{.*}} to %[[BX]]
// CHECK: %[[BASE:.*]] = arith.muli %[[IX]], %[[BX]] : index
// CHECK: %[[I:.*]] = arith.addi %[[BASE]], %[[TX]] : index
// CHECK: memref.store %[[GX]], %[[M]][%[[I]]]
// CHECK: gpu.binary @kfuse_kernels [#gpu.object<#nvvm.target, bin = "KFUSE-HOST-MODULE:__kfuse_host_kfuse_kernels_\00">]
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  func.func @host(%m: memref<?xindex>, %g: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kfuse_kernels::@fill blocks in (%g, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<?xindex>)
    return
  }
  gpu.module @kfuse_kernels {
    gpu.func @fill(%m: memref<?xindex>) kernel {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %sx = gpu.block_dim x
      %gx = gpu.grid_dim x
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      memref.store %gx, %m[%i] : memref<?xindex>
      gpu.return
    }
  }
}

// -----

// Threads that wait for each other cannot run one after the other.
module attributes {gpu.container_module} {
  gpu.module @kfuse_kernels {
    // expected-error @below {{kf-host-kernels: kernel 'sync' synchronizes its threads; it has no host version}}
    gpu.func @sync() kernel {
      gpu.barrier
      gpu.return
    }
  }
}
