// The mapping invariant of issue 12: every kernel kf-form-kernels forms is
// one a GPU mapping serves. 2,000 random programs (seeds 41 and 42, 1,000
// each; test/harness/kf_gen.py with issue 12's shapes: slices, permutes
// read by reductions and elementwise ops, kf.contiguous, siblings,
// reduction chains, unit-dim reshapes next to reductions, small reductions,
// and the new ops) through kfuse-opt --kf-to-linalg --kf-form-kernels
// --kf-assign-kernel-mappings, no execution (kf_fuzz.py --check-mapped).
// No kernel may be refused ("cannot be mapped to the GPU yet"), batched
// and batch-broadcast matmuls included (batch as grid z, since issue 15):
// kf_gen.NO_GPU_MAPPING, the ops no GPU mapping serves even alone
// (kf_fuzz.py --ops-alone), is empty, so no program is exempt (a program
// holding such an op would be counted as exempt, its other kernels still
// checked). kfuse-opt must accept every program.
// The same programs with --kf-form-kernels=check-mappings=false measure
// the planner's rules without the check: how many programs would have had
// a kernel no mapping serves, and how many boundaries the check made
// (`unmappable`); docs/ROBUSTNESS.md records them. Any seed and count:
//   python3 test/harness/kf_fuzz.py --kfuse-opt build/bin/kfuse-opt \
//     --check-mapped --seed 7 --count 1000 --save-dir /tmp/findings
// RUN: %kf-fuzz --check-mapped --batch 50 --seed 41 --count 1000 | FileCheck %s --check-prefix=SEED41
// SEED41: kf-fuzz: 1000 programs: 1000 keep the mapping invariant ({{[0-9]+}} exempt: an op no GPU mapping serves), 0 break it, 0 refused by kfuse-opt; planner alone (check-mappings=false): {{[0-9]+}} programs unmapped; {{[0-9]+}} boundaries unmappable (seed 41)
// RUN: %kf-fuzz --check-mapped --batch 50 --seed 42 --count 1000 | FileCheck %s --check-prefix=SEED42
// SEED42: kf-fuzz: 1000 programs: 1000 keep the mapping invariant ({{[0-9]+}} exempt: an op no GPU mapping serves), 0 break it, 0 refused by kfuse-opt; planner alone (check-mappings=false): {{[0-9]+}} programs unmapped; {{[0-9]+}} boundaries unmappable (seed 42)
