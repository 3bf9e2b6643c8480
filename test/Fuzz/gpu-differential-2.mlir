// 200 more random programs (seeds 3 and 11) through the GPU mappings,
// emulated, against the unfused CPU pipeline: gpu-differential.mlir says
// how. Its four siblings and it make 1,000 programs, in five tests that lit
// runs in parallel. Seed 4 left when the generator learned gathers: it now
// draws a division by the mean of x - x.mean(-1), zero but for rounding,
// whose quotient (1e9 either way) no two summation orders agree on.
// RUN: %kf-fuzz --seed 3 --count 100 --candidate=--kf-gpu-emulation-pipeline \
// RUN:   --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: %kf-fuzz --seed 11 --count 100 --candidate=--kf-gpu-emulation-pipeline \
// RUN:   --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK: kf-fuzz: 100 passed, 0 failed (seed
