// Found by kf_fuzz.py --kfuse-run (seed 3, program 99): a value returned
// twice, as itself and reshaped, is one buffer behind two results.
// kfuse-run freed it once per result: the runtime refused the second free
// ("free of a buffer the runtime did not allocate") and the run stopped.
// Each buffer is now freed once, on every call.
// RUN: kfuse-run %s --device=cpu --warmup=1 --repeat=3 --check | FileCheck %s
// CHECK: steady state: 3 calls
// CHECK: check against the CPU, unfused: {{.*}}: ok
func.func @twice(%x: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>) {
  %0 = kf.exp %x : tensor<5xf32>
  %1 = kf.reshape %0 [-1] : tensor<5xf32>
  return %0, %1 : tensor<5xf32>, tensor<5xf32>
}
