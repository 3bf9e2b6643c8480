// What kfuse-compile refuses: one message naming the cause, exit 1, no
// crash, and no output file written.
// RUN: not kfuse-compile %s --gpu-chip=sm_61 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not test -e %t.ptx
// RUN: not kfuse-compile %s --gpu-chip=sm_100 2>&1 | FileCheck %s --check-prefix=CHIP100
// RUN: not kfuse-compile %s --fusion=maybe 2>&1 | FileCheck %s --check-prefix=FUSION
// RUN: not kfuse-compile %s --fusion=row-persistent=maybe 2>&1 | FileCheck %s --check-prefix=RULE
// RUN: not kfuse-compile %s --fusion=max-ops=-1 2>&1 | FileCheck %s --check-prefix=MAXOPS
// RUN: not kfuse-compile %s --emit=cubin 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not kfuse-compile %s --emit=lib 2>&1 | FileCheck %s --check-prefix=LIB
// RUN: not kfuse-compile %s --block-size=100 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not kfuse-compile %t.missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: cp %s %t.input.mlir && not kfuse-compile %t.input.mlir -o %t.input.mlir 2>&1 | FileCheck %s --check-prefix=OVERWRITE
// RUN: cmp %s %t.input.mlir
// RUN: kfuse-compile %S/../Runtime/Inputs/batched-matmul.mlir 2>&1 | FileCheck %s --check-prefix=BATCHED

// A chip before sm_75 (CUDA 13 dropped them) or after sm_90 (PTX ISA 8.0
// does not reach it) is refused before it reaches the NVPTX backend, which
// would abort.
// CHIP: kfuse-compile: error: unsupported GPU chip 'sm_61': kfuse emits PTX ISA 8.0 for sm_75, sm_80, sm_86, sm_87, sm_89, sm_90
// CHIP100: unsupported GPU chip 'sm_100'
// --fusion takes kf-form-kernels' words: on, off, max-ops=N, rule switches.
// FUSION: kfuse-compile: error: --fusion=maybe: unknown fusion option 'maybe': expected on, off, max-ops=N, attention-min-scores=BYTES or a rule (pointwise, reduction-prologue, reduction-epilogue, row-persistent, matmul-epilogue, reshape, reshape-propagation, recompute, sibling, reduction-chain, small-reduction, attention, multi-reduction, matmul-chain, transposed-epilogue)=true|false
// RULE: kfuse-compile: error: --fusion=row-persistent=maybe: fusion rule 'row-persistent' must be set to true or false, got 'row-persistent=maybe'
// MAXOPS: kfuse-compile: error: --fusion=max-ops=-1: max-ops must be a number of ops from 0 (no limit) to 4294967295, got '-1'
// EMIT: Cannot find option named 'cubin'
// LIB: kfuse-compile: error: --emit=lib writes a shared library: give its path with -o
// BLOCK: kfuse-compile: error: block-size must be a multiple of 32 from 32 to 1024, got 100
// MISSING: kfuse-compile: error: cannot open input file
// The user's input is never overwritten.
// OVERWRITE: kfuse-compile: error: -o {{.*}}input.mlir is the input file; refusing to overwrite it
// Every kernel kf-form-kernels forms has a GPU mapping (it splits what no
// mapping serves), so no kf program is refused for want of one: the
// batched matmul, once refused here, compiles (batch as grid z).
// BATCHED-NOT: error
// BATCHED: .entry matmul_0(
func.func @add(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.add %a, %b : tensor<8xf32>, tensor<8xf32>
  return %0 : tensor<8xf32>
}
