// bench/cpu_compare.py (the CPU benchmark against numpy, PyTorch,
// torch.compile and IREE) still runs: --dry-run takes every program of
// bench/cpu/ at a tiny size through kfuse-compile --emit=lib, calls the
// fused entry point through ctypes, checks each framework's result against
// numpy (the script exits 1 when kfuse's is wrong) and times one round.
// Only kfuse and numpy are needed: lit's Python has no PyTorch and no IREE
// here, and a framework that is missing is skipped and said so.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %kfuse_src/bench/cpu_compare.py --dry-run --frameworks kfuse,numpy \
// RUN:   --kfuse-compile %kfuse_obj/bin/kfuse-compile --work-dir %t --out %t/out.json \
// RUN:   2>/dev/null | FileCheck %s
// RUN: %python %s.py %t/out.json | FileCheck %s --check-prefix=JSON

// CHECK:      framework kfuse: available, cpu: 2 threads
// CHECK-NEXT: framework numpy: available
// CHECK:      | program | kfuse | numpy | kfuse / best | kfuse / best of IREE, torch.compile |
// CHECK:      | add_relu 8 | {{[0-9.]+ (us|ms|s)}} ({{[0-9.]+}}) | {{[0-9.]+ (us|ms|s)}} ({{[0-9.]+}}) |
// CHECK:      | softmax 8x32 |
// CHECK:      | layer_norm 8x32 |
// CHECK:      | rms_norm 8x32 |
// CHECK:      | mlp batch 4 |
// CHECK:      | matmul 16 |
// CHECK:      | linear 5x7x9 |
// CHECK:      | sum 1000 |
// CHECK:      | transpose 8x32 |
// CHECK:      | gelu 1000 |
// CHECK:      | rotary 2x5x3x8 |
// CHECK:      | cumsum 8x32 dim 0 |
// CHECK:      per-call floor of each harness (add_relu of 8 elements): kfuse
// CHECK:      kfuse: 13 of 13 programs match numpy

// JSON: rows 13
// JSON: kfuse timed in every row
// JSON: numpy timed in every row

// A framework that is not installed (or, where it is, one that works) is
// named in the first lines: PyTorch and IREE may or may not be in lit's
// Python, so either is accepted; a name that is no framework is refused.
// RUN: %python %kfuse_src/bench/cpu_compare.py --dry-run --only 'add_relu 8' \
// RUN:   --frameworks kfuse,torch,iree --kfuse-compile %kfuse_obj/bin/kfuse-compile \
// RUN:   --work-dir %t 2>/dev/null | FileCheck %s --check-prefix=SKIP
// SKIP: framework kfuse: available
// SKIP: framework torch: {{available|skipped \(ModuleNotFoundError}}
// SKIP: framework iree: {{available|skipped \(ModuleNotFoundError}}
// SKIP: kfuse: 1 of 1 programs match numpy
// RUN: not %python %kfuse_src/bench/cpu_compare.py --dry-run --frameworks kfuse,tvm 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: unknown framework(s): tvm
