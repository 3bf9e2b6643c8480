// The programs of bench/host/ (bench/ab-compilers.sh runs them; the
// results are in docs/BENCHMARKS.md) parse, verify and fuse as they say:
// each Linear with its bias, the GELU with its scale, the Linear with its
// bias and GELU, one kernel each (eager: the matmul, its bias and GELU
// apart; the transposed weight is read in place).
// RUN: kfuse-opt %kfuse_src/bench/host/linear_272x512x192.mlir --kf-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=LINEAR
// RUN: kfuse-opt %kfuse_src/bench/host/linear_272x768x192.mlir --kf-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=LINEAR
// RUN: kfuse-opt %kfuse_src/bench/host/linear_272x1024x192.mlir --kf-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=LINEAR
// LINEAR: function @linear
// LINEAR-NEXT: eager fused
// LINEAR-NEXT: kernels 2 1
// RUN: kfuse-opt %kfuse_src/bench/host/gelu_wide.mlir --kf-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=GELU
// GELU: function @gelu_wide
// GELU-NEXT: eager fused
// GELU-NEXT: kernels 2 1
// RUN: kfuse-opt %kfuse_src/bench/host/linear_gelu.mlir --kf-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=LINEAR-GELU
// LINEAR-GELU: function @linear_gelu
// LINEAR-GELU-NEXT: eager fused
// LINEAR-GELU-NEXT: kernels 3 1
