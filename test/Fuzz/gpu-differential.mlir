// 200 random programs (seeds 1 and 2) through the GPU mappings, executed by
// kf-emulate-gpu-launches (shuffles, shared memory and barriers with the
// GPU's semantics), against the unfused CPU pipeline. Programs with a
// kernel no GPU mapping serves yet are counted as skipped (5 of 200 with
// issue 12's generator and kf-form-kernels' mapping check, 2026-12-03;
// 82 before issue 13; 45 of the 200 have dynamic dims).
// Reductions combine in a different order on the GPU: tolerances 1e-4
// relative, 1e-5 absolute. It found the bugs in docs/ROBUSTNESS.md (two of
// them in test/Regression: int-pow-negative-exponent.mlir,
// row-kernel-reshaped-rows.mlir).
// RUN: %kf-fuzz --seed 1 --count 100 --candidate=--kf-gpu-emulation-pipeline \
// RUN:   --skip-unmapped --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: %kf-fuzz --seed 2 --count 100 --candidate=--kf-gpu-emulation-pipeline \
// RUN:   --skip-unmapped --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK: kf-fuzz: {{[0-9]+}} passed, 0 failed, {{[0-9]+}} skipped (no GPU mapping)
