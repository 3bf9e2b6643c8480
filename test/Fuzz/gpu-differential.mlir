// 200 random programs (seeds 1 and 2) through the GPU mappings, executed by
// kf-emulate-gpu-launches (shuffles, shared memory and barriers with the
// GPU's semantics), against the unfused CPU pipeline. Every program maps
// (issue 15): a kernel the mappings refused would fail the program (5 of
// 200 were skipped for that with issue 12's generator, 2026-12-03; 82
// before issue 13).
// Reductions combine in a different order on the GPU: tolerances 1e-4
// relative, 1e-5 absolute. It found the bugs in docs/ROBUSTNESS.md (two of
// them in test/Regression: int-pow-negative-exponent.mlir,
// row-kernel-reshaped-rows.mlir). With gpu-differential-2.mlir to
// gpu-differential-5.mlir (seeds 3 to 10, run by lit in parallel): 1,000
// programs, issue 15's bar.
// RUN: %kf-fuzz --seed 1 --count 100 --candidate=--kf-gpu-emulation-pipeline \
// RUN:   --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: %kf-fuzz --seed 2 --count 100 --candidate=--kf-gpu-emulation-pipeline \
// RUN:   --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK: kf-fuzz: 100 passed, 0 failed (seed
