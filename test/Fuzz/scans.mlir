// Random programs with prefix scans added to the draw (kf_fuzz.py --kinds
// cumsum: kf_gen_ops.py's op_cumsum, kf.cumsum of any value along any dim,
// static or dynamic; the default draw, and every other seed's programs,
// are unchanged). Fused against unfused on the CPU and through the
// emulated GPU mappings (the scan mapping against the unfused triangular
// sums), the mapping invariant (every kernel formed is one a GPU mapping
// serves: a scan's kernel holds what the scan mapping runs), and as a user
// runs them (kfuse-run --check: the float64 reference's cumsum rule).
// RUN: %kf-fuzz --kinds cumsum --seed 501 --count 30 | FileCheck %s --check-prefix=CPU
// CPU: kf-fuzz: 30 passed, 0 failed (seed 501; {{[0-9]+}} with dynamic dims)
// RUN: %kf-fuzz --kinds cumsum --candidate=--kf-gpu-emulation-pipeline --seed 502 --count 30 | FileCheck %s --check-prefix=EMU
// EMU: kf-fuzz: 30 passed, 0 failed (seed 502; {{[0-9]+}} with dynamic dims)
// RUN: %kf-fuzz --kinds cumsum --check-mapped --batch 50 --seed 503 --count 300 | FileCheck %s --check-prefix=MAPPED
// MAPPED: kf-fuzz: 300 programs: 300 keep the mapping invariant ({{[0-9]+}} exempt: an op no GPU mapping serves), 0 break it, 0 refused by kfuse-opt; {{.*}} (seed 503)
// RUN: %kf-fuzz-run --kinds cumsum --seed 504 --count 20 | FileCheck %s --check-prefix=HOST
// HOST: kf-fuzz: 20 passed ({{[0-9]+}} on the GPU, {{[0-9]+}} on the CPU), 0 failed (seed 504; {{[0-9]+}} with dynamic dims)
