// bf16 results on the host (kfuse-compile --emit=lib, kfuse-run on the CPU).
// LLVM calls __truncsfbf2 / __truncdfbf2 for them on CPUs without
// AVX512-BF16; libgcc 12 has neither, so the library did not load
// ("undefined symbol: __truncsfbf2", found by kf_fuzz.py --kfuse-run). The
// runtime provides both. Inputs at and near the ties between two bf16
// values; the reference (run_check.py's bf16: 8 significant bits, ties to
// even, in float64) is exact. f64 is rounded once: through f32, 332 of
// these 1000 values would round the other way.
// RUN: %run-check %S/Inputs/to-bf16.mlir --input "arg0=f64[1000]:ties" \
// RUN:   --input "arg1=f32[1000]:ties" --expect "bf16(arg0)" --expect "bf16(arg1)" \
// RUN:   -- --device=cpu --repeat=0 --check | FileCheck %s
// CHECK: check against the CPU, unfused: {{.*}}: ok
// CHECK: run_check: result0 float32[1000] matches numpy (max abs error 0, max rel error 0)
// CHECK: run_check: result1 float32[1000] matches numpy (max abs error 0, max rel error 0)

// --check hands bf16 inputs to the unfused run as f32 .npy files (numpy has
// no bf16); they are read back as bf16 (they failed with "holds f32; takes
// bf16" before). A bf16 argument read from an f32 file is rounded to bf16.
// RUN: kfuse-run %S/Inputs/bf16-scale.mlir --dim d0=1000 --dim d1=1000 --device=cpu --repeat=0 --check \
// RUN:   | FileCheck %s --check-prefix=CHECKED
// CHECKED: check against the CPU, unfused: {{.*}}: ok
// RUN: %run-check %S/Inputs/bf16-scale.mlir --input "arg0=f32[64]:ties" \
// RUN:   --input "arg1=f32[64]" --expect "bf16(arg0).astype(np.float32) * arg1" \
// RUN:   -- --device=cpu --repeat=0 | FileCheck %s --check-prefix=FROMF32
// FROMF32: run_check: result0 float32[64] matches numpy
