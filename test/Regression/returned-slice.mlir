// Found by kfuse-import's tests: a function that returns a unit-step slice
// of its argument as it is (x[..., :2], both halves of x.chunk(2, -1))
// failed to compile ("kf-device-buffers: a copy between strided views has
// no device version yet"), even for the CPU. The slice's kernel was an
// identity copy, which the canonicalizer before bufferization erased; the
// strided copy left on the host had no device version.
// kf-materialize-kernel-results puts the copy back inside the kernel.

// Run against numpy (kfuse-run on the CPU; the GPU version is compiled and
// its PTX checked by ptxas where the toolkit is).
// RUN: sed 's|^// -\{5\}$||' %s > %t.mlir
// RUN: kfuse-compile %t.mlir --emit=lib -o %t.so
// RUN: %run-check %t.so --input "arg0=f32[2,3,4]" --expect "arg0[..., :2]" \
// RUN:   -- --entry last_dim --device=cpu --repeat=0 | FileCheck %s --check-prefix=NP
// RUN: %run-check %t.so --input "arg0=f32[5,6]" --expect "arg0[:, :3]" --expect "arg0[:, 3:]" \
// RUN:   -- --entry chunks --device=cpu --repeat=0 | FileCheck %s --check-prefix=NP
// RUN: kfuse-compile %t.mlir --emit=ptx -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_75 %t.ptx -o /dev/null %}
// NP-NOT: differs
// NP: run_check: result0 {{.*}} matches numpy

// RUN: kfuse-opt %s --split-input-file --kf-to-linalg --kf-form-kernels \
// RUN:   --kf-assign-kernel-mappings --canonicalize --kf-materialize-kernel-results \
// RUN:   | FileCheck %s

// The kernel copies the slice itself: one generic, marked a copy.
// CHECK-LABEL: func.func @last_dim
// CHECK:         %[[S:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0] [2, 3, 2] [1, 1, 1]
// CHECK:         kf.kernel "pointwise_slice_0" kind pointwise mapping flat
// CHECK:           linalg.generic {{.*}} ins(%[[S]] : tensor<2x3x2xf32>) {{.*}} attrs = {kf.op = "copy"}
func.func @last_dim(%x: tensor<2x3x4xf32>) -> tensor<2x3x2xf32> {
  %a = kf.slice %x starts [0, 0, 0] ends [2, 3, 2] steps [1, 1, 1] : tensor<2x3x4xf32>
  return %a : tensor<2x3x2xf32>
}

// -----

// A kernel that computes what it yields is left alone.
// CHECK-LABEL: func.func @computed
// CHECK-NOT:     kf.op = "copy"
// CHECK:         return
func.func @computed(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = kf.exp %x : tensor<8xf32>
  return %a : tensor<8xf32>
}

// -----

// Both halves of x.chunk(2, -1), returned as they are, with a dynamic dim:
// the second half reads x at d1 + 3 (not an identity copy, so it stays);
// the first is the extract_slice's copy, put back.
// CHECK-LABEL: func.func @chunks
// CHECK:         kf.op = "slice", kf.view
// CHECK:         ins(%extracted_slice : tensor<?x3xf32>) {{.*}} attrs = {kf.op = "copy"}
func.func @chunks(%x: tensor<?x6xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>) {
  %a = kf.slice %x starts [0, 0] ends [9223372036854775807, 3] steps [1, 1] : tensor<?x6xf32>
  %b = kf.slice %x starts [0, 3] ends [9223372036854775807, 6] steps [1, 1] : tensor<?x6xf32>
  return %a, %b : tensor<?x3xf32>, tensor<?x3xf32>
}
