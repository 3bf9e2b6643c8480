// Issue 13, item 10: `kfuse-compile --emit=lib` aborted ("LLVM ERROR: out of
// memory") on a huge splat constant, which bufferization made a global of
// every element (4 TiB here). A splat of more than 2^16 elements is now
// written by a kernel (kf.op "constant", as torch.full launches one), which
// fusion folds into its readers; a returned one is a kernel of its own.
// The compile runs under a 4 GiB address-space limit (%limit-vm), so a
// regression fails fast instead of taking the machine's memory.

// RUN: rm -f %t.so && (%limit-vm kfuse-compile %s --emit=lib -o %t.so) && test -f %t.so
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// CHECK-LABEL: function @splat_sum
// CHECK: reduction_constant_sum_{{[0-9]+}} (reduction): ops constant, sum
// CHECK-LABEL: function @splat_returned
// CHECK: pointwise_constant_{{[0-9]+}} (pointwise): ops constant
// CHECK-LABEL: function @splat_add
// CHECK: kernels 2 1
// CHECK: pointwise_constant_add_{{[0-9]+}} (pointwise): ops constant, add

// Returned, it must be allocated: kfuse-run refuses with the size.
// RUN: not kfuse-run %t.so --entry splat_returned --device=cpu --repeat=0 2>&1 | FileCheck %s --check-prefix=ALLOC
// ALLOC: error: {{.*}}4398046511104 bytes

// The numbers, at sizes that run, against numpy: 2^17 ones sum to 2^17; 2 + x.
// RUN: %run-check %S/Inputs/splat-small.mlir --entry small_sum --expect "np.array(2.0 ** 17, np.float32)" -- --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=NUM
// RUN: %run-check %S/Inputs/splat-small.mlir --entry small_add --input "arg0=f32[100000]" --expect "arg0 + 2" -- --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=NUM
// NUM: matches numpy

func.func @splat_sum() -> tensor<f32> {
  %c = kf.constant dense<1.0> : tensor<1099511627776xf32>
  %s = kf.sum %c : tensor<1099511627776xf32>
  return %s : tensor<f32>
}

func.func @splat_returned() -> tensor<1099511627776xf32> {
  %c = kf.constant dense<2.0> : tensor<1099511627776xf32>
  return %c : tensor<1099511627776xf32>
}

func.func @splat_add(%x: tensor<100000xf32>) -> tensor<100000xf32> {
  %c = kf.constant dense<2.0> : tensor<100000xf32>
  %y = kf.add %x, %c : tensor<100000xf32>, tensor<100000xf32>
  return %y : tensor<100000xf32>
}
