// 200 random programs with fixed seeds (test/tools/kf_fuzz.py): each runs
// fused and unfused on the CPU with equal results, and its report shows
// fused <= eager in kernels, transfers and bytes. Any seed and count:
//   python3 test/tools/kf_fuzz.py --kfuse-opt build/bin/kfuse-opt \
//     --runner '...mlir-runner...' --seed 7 --count 1000 --save-dir test/Regression
// RUN: %kf-fuzz --seed 1 --count 100
// RUN: %kf-fuzz --seed 2 --count 100
