// RUN: kfuse-opt %s -split-input-file --kf-sink-launch-constants | FileCheck %s

// Two launches share the constants made outside them: each gets its own
// copy, once however often its body reads it, and the original stays for
// the host code that still reads it.
// CHECK-LABEL: func.func @shared
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[ONE]], {{.*}} = %[[ONE]], {{.*}} = %[[ONE]])
// CHECK-NEXT: %[[Z1:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[A:.*]] = memref.load
// CHECK-NEXT: %[[B:.*]] = arith.maximumf %[[A]], %[[Z1]] : f32
// CHECK-NEXT: arith.minimumf %[[B]], %[[Z1]] : f32
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[C:.*]] = memref.load
// CHECK-NEXT: arith.maximumf %[[C]], %[[Z2]] : f32
// CHECK: gpu.terminator
// CHECK: memref.store %[[ZERO]]
func.func @shared(%m: memref<4xf32>) {
  %one = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%sx = %one, %sy = %one, %sz = %one) {
    %a = memref.load %m[%tx] : memref<4xf32>
    %b = arith.maximumf %a, %zero : f32
    %c = arith.minimumf %b, %zero : f32
    memref.store %c, %m[%tx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%sx = %one, %sy = %one, %sz = %one) {
    %a = memref.load %m[%tx] : memref<4xf32>
    %b = arith.maximumf %a, %zero : f32
    memref.store %b, %m[%tx] : memref<4xf32>
    gpu.terminator
  }
  memref.store %zero, %m[%one] : memref<4xf32>
  return
}

// -----

// Values that are not constants (an argument, a load) and constants made
// inside the launch are left where they are.
// CHECK-LABEL: func.func @not_constants
// CHECK: gpu.launch
// CHECK-NOT: arith.constant 1 : index
// CHECK: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: memref.load
// CHECK-NEXT: arith.mulf %{{.*}}, %[[TWO]] : f32
// CHECK-NEXT: arith.addf %{{.*}}, %arg1 : f32
func.func @not_constants(%m: memref<4xf32>, %s: f32) {
  %one = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%sx = %one, %sy = %one, %sz = %one) {
    %two = arith.constant 2.0 : f32
    %a = memref.load %m[%tx] : memref<4xf32>
    %b = arith.mulf %a, %two : f32
    %c = arith.addf %b, %s : f32
    memref.store %c, %m[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}
