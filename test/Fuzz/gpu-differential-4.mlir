// 200 more random programs (seeds 7 and 8) through the GPU mappings,
// emulated, against the unfused CPU pipeline: gpu-differential.mlir says
// how. Its four siblings and it make 1,000 programs (seeds 1 to 10), in
// five tests that lit runs in parallel.
// RUN: %kf-fuzz --seed 7 --count 100 --candidate=--kf-gpu-emulation-pipeline \
// RUN:   --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: %kf-fuzz --seed 8 --count 100 --candidate=--kf-gpu-emulation-pipeline \
// RUN:   --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK: kf-fuzz: 100 passed, 0 failed (seed
