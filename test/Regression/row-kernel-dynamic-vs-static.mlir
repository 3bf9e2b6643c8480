// Found by kf_fuzz.py --kfuse-run (seed 1, program 18): a log_softmax over
// a dim of size 1 ([3, 1, 2]) fused a division that broadcasts it to
// [3, ?, 2]. The row check let a dynamic size match the static 1, so the
// division was mapped as an op over the 3x2 rows: 6 of 3*d1*2 elements
// computed, the others left as whatever the buffer held (-4.2e21 where
// the reference had -1.1), on the GPU and in the host runtime. A dynamic
// size now matches only a dynamic one when kernels are tagged; the kernel
// is refused on the GPU and runs serially on the host. Since issue 13
// (item 1) kernel formation keeps the division out of the row kernel
// (row-mismatch). Since issue 12 the reductions over that dim of size 1
// are elementwise code (a thread per element, the flat mapping, which
// takes ops whose shapes differ by unit dims), so the kernel runs on the
// GPU: its result is checked through the emulated GPU mapping.
// RUN: kfuse-compile %s -o /dev/null
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s
// DIMS: 1 3
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s --check-prefix=REPORT
// REPORT: (mul -> div): row-mismatch
// RUN: kfuse-run %s --device=cpu --repeat=0 --check --dim d0=1 --dim d1=3 \
// RUN:   | FileCheck %s --check-prefix=RUNS
// RUNS: check against the CPU, unfused: {{.*}}: ok
func.func @p1_18(%arg1: tensor<?x2xf32>, %arg3: tensor<?x1xf16>) -> (tensor<3x?x2xf32>) {
  %v0 = kf.broadcast_to %arg1 [3, 1, 2] : tensor<?x2xf32>
  %v1 = kf.log_softmax %v0 dim -2 : tensor<3x1x2xf32>
  %v3 = kf.mul %v1, %v0 : tensor<3x1x2xf32>, tensor<3x1x2xf32>
  %v7 = kf.div %v3, %arg3 : tensor<3x1x2xf32>, tensor<?x1xf16>
  return %v7 : tensor<3x?x2xf32>
}
