// kf-contract-float-ops: the float multiplies, adds, subtractions and
// divisions of every gpu.module get the `contract` fast-math flag (kept
// with the flags they had); other ops, and the host code, are unchanged.
// RUN: kfuse-opt %s --kf-contract-float-ops | FileCheck %s

// CHECK-LABEL: func.func @host(
// The host's float ops are not the kernels': no flag.
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-LABEL: gpu.func @kernel(
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT: arith.subf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT: arith.divf %{{.*}}, %{{.*}} fastmath<contract> : f32
// Flags already there stay.
// CHECK-NEXT: arith.mulf %{{.*}}, %{{.*}} fastmath<nnan,contract> : f32
// Not a float multiply or add: no flag (contraction is about those only).
// CHECK-NEXT: arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: arith.muli %{{.*}}, %{{.*}} : i32
module attributes {gpu.container_module} {
  func.func @host(%a: f32, %b: f32) -> f32 {
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %a : f32
    return %s : f32
  }
  gpu.module @kernels {
    gpu.func @kernel(%a: f32, %b: f32, %i: i32, %out: memref<2xf32>, %iout: memref<i32>) kernel {
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %p, %a : f32
      %d = arith.subf %s, %b : f32
      %q = arith.divf %d, %b : f32
      %m = arith.mulf %q, %q fastmath<nnan> : f32
      %x = arith.maximumf %m, %a : f32
      %j = arith.muli %i, %i : i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      memref.store %x, %out[%c0] : memref<2xf32>
      memref.store %s, %out[%c1] : memref<2xf32>
      memref.store %j, %iout[] : memref<i32>
      gpu.return
    }
  }
}
