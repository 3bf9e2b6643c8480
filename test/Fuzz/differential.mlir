// 200 random programs with fixed seeds (test/harness/kf_fuzz.py, kf_gen.py,
// with issue 12's views, siblings, reduction chains and new ops since
// 2026-12-03; 45 of them with dynamic dims): each runs fused and unfused
// on the CPU with equal results, and its report shows fused <= eager in kernels,
// transfers and bytes (polynomials in the sizes compared at several
// sizes). Any seed and count (--dynamic 1.0: every program dynamic):
//   python3 test/harness/kf_fuzz.py --kfuse-opt build/bin/kfuse-opt \
//     --runner '...mlir-runner...' --seed 7 --count 1000 --save-dir test/Regression
// RUN: %kf-fuzz --seed 1 --count 100 | FileCheck %s --check-prefix=SEED1
// SEED1: kf-fuzz: 100 passed, 0 failed (seed 1; {{[0-9]+}} with dynamic dims)
// RUN: %kf-fuzz --seed 2 --count 100 | FileCheck %s --check-prefix=SEED2
// SEED2: kf-fuzz: 100 passed, 0 failed (seed 2; {{[0-9]+}} with dynamic dims)
