// Sums whose error does not grow with n (issue 13, item 3): sum, mean,
// softmax's denominator and layer_norm's moments at 10^6 and 10^8 elements,
// within 1e-6 (relative) of float64 references computed by numpy, through
// kfuse-run (the GPU kernels compiled for the host: every row or full
// reduction folded by one thread), fused and unfused. Before the fix a
// million 0.1s summed to 100958 (1% off) and 10^8 to 2^21-ish.

// RUN: %run-check %S/Inputs/sum-mean.mlir --input "arg0=f32[1000000]:fill=0.1" \
// RUN:   --expect "np.sum(arg0.astype(np.float64))" --expect "np.mean(arg0.astype(np.float64))" \
// RUN:   --rtol 1e-6 --atol 0 -- --device=cpu --repeat=0 | FileCheck %s --check-prefix=SUM
// RUN: %run-check %S/Inputs/sum-mean.mlir --input "arg0=f32[1000000]:unit" \
// RUN:   --expect "np.sum(arg0.astype(np.float64))" --expect "np.mean(arg0.astype(np.float64))" \
// RUN:   --rtol 1e-6 --atol 0 -- --device=cpu --repeat=0 --fusion=off | FileCheck %s --check-prefix=SUM
// RUN: %run-check %S/Inputs/sum-mean.mlir --input "arg0=f32[100000000]:fill=0.1" \
// RUN:   --expect "np.sum(arg0.astype(np.float64))" --expect "np.mean(arg0.astype(np.float64))" \
// RUN:   --rtol 1e-6 --atol 0 -- --device=cpu --repeat=0 | FileCheck %s --check-prefix=SUM
// SUM: run_check: result0 float32[] matches numpy
// SUM: run_check: result1 float32[] matches numpy

// Each softmax value is about 1.7e-6: compared relatively (atol far below).
// RUN: %run-check %S/Inputs/long-softmax.mlir --input "arg0=f32[2x1000000]:unit" \
// RUN:   --expect "softmax(arg0.astype(np.float64))" \
// RUN:   --rtol 1e-6 --atol 1e-13 -- --device=cpu --repeat=0 | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX: run_check: result0 float32[2, 1000000] matches numpy

// layer_norm's outputs are of order 1; those near the mean are small, so the
// bound is 1e-6 relative or absolute.
// RUN: %run-check %S/Inputs/long-layer-norm.mlir --input "arg0=f32[2x1000000]:unit" \
// RUN:   --expect "(lambda x: (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5))(arg0.astype(np.float64))" \
// RUN:   --rtol 1e-6 --atol 1e-6 -- --device=cpu --repeat=0 | FileCheck %s --check-prefix=NORM
// NORM: run_check: result0 float32[2, 1000000] matches numpy
