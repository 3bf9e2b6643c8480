// Kernels of the same code are compiled once (kf-share-kernel-code) and
// still launched, timed and reported under their own names
// (kf-alias-shared-kernels, the runtime's aliases). Eager, this program is
// four kernels of two bodies: both adds read two f32[1000] and write one,
// so do both muls.
//
// In the PTX, one entry per body, and a line for each name that runs
// another kernel's code.
// RUN: kfuse-compile %s --emit=ptx --fusion=off -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX: // kfuse-kernel-alias pointwise_add_1 pointwise_add_0
// PTX-NEXT: // kfuse-kernel-alias pointwise_mul_3 pointwise_mul_2
// PTX-NOT: .entry pointwise_add_1
// PTX-NOT: .entry pointwise_mul_3
// PTX: .entry pointwise_add_0(
// PTX-NOT: .entry pointwise_add_1
// PTX-NOT: .entry pointwise_mul_3
// PTX: .entry pointwise_mul_2(
// PTX-NOT: .entry
//
// On the fake driver: the module has the two entries; the second add
// launches the first's code, and the run reports four kernels, a launch
// each, each with its own bytes (3 x 4000 B = 12.00 kB).
// RUN: rm -f %t.log
// RUN: env KFUSE_CUDA_DRIVER=%fake-cuda KFUSE_FAKE_CUDA_LOG=%t.log kfuse-run %s \
// RUN:   --device=cuda --fusion=off --warmup=0 --repeat=1 | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --check-prefix=LOG < %t.log
// REPORT-DAG: pointwise_add_0 {{ *}}1 {{.*}} 12.00 kB
// REPORT-DAG: pointwise_add_1 {{ *}}1 {{.*}} 12.00 kB
// REPORT-DAG: pointwise_mul_2 {{ *}}1 {{.*}} 12.00 kB
// REPORT-DAG: pointwise_mul_3 {{ *}}1 {{.*}} 12.00 kB
// LOG: cuModuleLoadDataEx entries: pointwise_add_0(16 params) pointwise_mul_2(16 params){{$}}
// LOG: cuLaunchKernel pointwise_add_0 {{.*}} args: 1000 buf0 buf0 0 1000 1 buf1 buf1 0 1000 1 buf2 buf2 0 1000 1
// LOG: cuLaunchKernel pointwise_add_0 {{.*}} args: 1000 buf2 buf2 0 1000 1 buf0 buf0 0 1000 1 buf3 buf3 0 1000 1
// LOG: cuLaunchKernel pointwise_mul_2 {{.*}} args: 1000 buf3 buf3 0 1000 1 buf1 buf1 0 1000 1 buf4 buf4 0 1000 1
// LOG: cuLaunchKernel pointwise_mul_2 {{.*}} args: 1000 buf4 buf4 0 1000 1 buf2 buf2 0 1000 1 buf5 buf5 0 1000 1
//
// On the host runtime, against numpy: the shared host functions compute
// each launch's own arguments.
// RUN: %run-check %s --input "arg0=f32[1000]" --input "arg1=f32[1000]" \
// RUN:   --expect "((arg0 + arg1) + arg0) * arg1 * (arg0 + arg1)" \
// RUN:   -- --device=cpu --fusion=off --repeat=2 | FileCheck %s --check-prefix=HOST
// HOST-DAG: pointwise_add_0 {{ *}}2
// HOST-DAG: pointwise_add_1 {{ *}}2
// HOST-DAG: pointwise_mul_2 {{ *}}2
// HOST-DAG: pointwise_mul_3 {{ *}}2
// HOST: run_check: result0 float32[1000] matches numpy
func.func @shared(%a: tensor<1000xf32>, %b: tensor<1000xf32>) -> tensor<1000xf32> {
  %0 = kf.add %a, %b : tensor<1000xf32>, tensor<1000xf32>
  %1 = kf.add %0, %a : tensor<1000xf32>, tensor<1000xf32>
  %2 = kf.mul %1, %b : tensor<1000xf32>, tensor<1000xf32>
  %3 = kf.mul %2, %0 : tensor<1000xf32>, tensor<1000xf32>
  return %3 : tensor<1000xf32>
}
