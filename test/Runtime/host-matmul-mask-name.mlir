// The bytes of a constant bool mask read by a matmul's epilogue
// (HostMatmulEpilogue.cpp's maskBytes) are a companion global named after
// the mask's, `<mask>_bytes`. Where the program has a function of that
// name, the companion takes the next free name (before: the function was
// taken for the companion, and the IR failed to verify); the function is
// kept and both entries compute numpy's results.
// RUN: kfuse-opt %s --kf-host-runtime-pipeline --mlir-print-ir-after=kf-map-kernels-to-host \
// RUN:   -o /dev/null 2>&1 | FileCheck %s
// RUN: %run-check %s --input "arg0=f32[3x9x17]" --input "arg1=f32[3x17x19]" \
// RUN:   --expect "np.where(np.tril(np.ones((9, 19), bool), 10), arg0 @ arg1, np.float32(-1))" \
// RUN:   -- --entry=batch_causal --device=cpu --repeat=1 | FileCheck %s --check-prefix=NUM
// RUN: %run-check %s --input "arg0=f32[4]" --expect "arg0 + arg0" \
// RUN:   -- --entry=__constant_9x19xi1_bytes --device=cpu --repeat=1 | FileCheck %s --check-prefix=NUM
// NUM: run_check: result0 float32[{{.*}}] matches numpy

// CHECK: memref.global "private" constant @__constant_9x19xi1_bytes_1 : memref<9x19xi8>
// CHECK-LABEL: func.func @batch_causal
// CHECK: memref.get_global @__constant_9x19xi1_bytes_1 : memref<9x19xi8>
// CHECK: gpu.launch
// CHECK: vector.load %{{.*}} : memref<9x19xi8>, vector<{{[0-9]+}}xi8>
// CHECK-LABEL: func.func @__constant_9x19xi1_bytes
func.func @batch_causal(%a: tensor<3x9x17xf32>, %b: tensor<3x17x19xf32>) -> tensor<3x9x19xf32> {
  %h = kf.matmul %a, %b : tensor<3x9x17xf32>, tensor<3x17x19xf32>
  %m = kf.constant dense<[[true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]]> : tensor<9x19xi1>
  %z = kf.constant dense<-1.0> : tensor<f32>
  %y = kf.where %m, %h, %z : tensor<9x19xi1>, tensor<3x9x19xf32>, tensor<f32>
  return %y : tensor<3x9x19xf32>
}

func.func @__constant_9x19xi1_bytes(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = kf.add %x, %x : tensor<4xf32>, tensor<4xf32>
  return %y : tensor<4xf32>
}
