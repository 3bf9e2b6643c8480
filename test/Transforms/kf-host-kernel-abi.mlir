// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-host-kernel-abi | FileCheck %s

// The kernel body becomes internal `<name>_block`; `<name>(params,
// geometry)` loads each argument through params[i] and the nine launch
// sizes from geometry, then calls it.
// CHECK-LABEL: llvm.func @__kfuse_host_m_k(
// CHECK-SAME: %[[P:.*]]: !llvm.ptr, %[[G:.*]]: !llvm.ptr)
// CHECK: %[[S0:.*]] = llvm.getelementptr %[[P]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[A0:.*]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[V0:.*]] = llvm.load %[[A0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[S1:.*]] = llvm.getelementptr %[[P]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[A1:.*]] = llvm.load %[[S1]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[V1:.*]] = llvm.load %[[A1]] : !llvm.ptr -> f32
// CHECK: llvm.getelementptr %[[G]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-COUNT-9: llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: llvm.call @__kfuse_host_m_k_block(%[[V0]], %[[V1]],
// CHECK-NEXT: llvm.return
// CHECK: llvm.func internal @__kfuse_host_m_k_block(%{{.*}}: !llvm.ptr, %{{.*}}: f32
llvm.func @__kfuse_host_m_k(%p: !llvm.ptr, %x: f32, %gx: i64, %gy: i64, %gz: i64,
                            %bx: i64, %by: i64, %bz: i64, %ix: i64, %iy: i64, %iz: i64)
    attributes {kf.host_kernel = "k"} {
  llvm.store %x, %p : f32, !llvm.ptr
  llvm.return
}

// -----

// kf-host-kernels' functions end in the nine launch sizes; anything else
// is refused.
// expected-error @below {{kf-host-kernel-abi: __kfuse_host_m_bad does not end in 9 i64 launch sizes}}
llvm.func @__kfuse_host_m_bad(%p: !llvm.ptr) attributes {kf.host_kernel = "bad"} {
  llvm.return
}
