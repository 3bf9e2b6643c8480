// Every switch of kf-form-kernels, seen through the report: each rule off
// restores the boundary it removes, with reason rule-disabled.
// RUN: kfuse-opt %s --kf-kernel-report=fusion=off -o /dev/null | FileCheck %s --check-prefix=NONE
// RUN: kfuse-opt %s --kf-kernel-report=max-ops=2 -o /dev/null | FileCheck %s --check-prefix=MAXOPS
// RUN: kfuse-opt %s --kf-kernel-report=pointwise=false -o /dev/null | FileCheck %s --check-prefix=NOPOINTWISE
// RUN: kfuse-opt %s --kf-kernel-report=reduction-prologue=false -o /dev/null | FileCheck %s --check-prefix=NOPROLOGUE
// RUN: kfuse-opt %s --kf-kernel-report=reduction-epilogue=false -o /dev/null | FileCheck %s --check-prefix=NOEPILOGUE
// RUN: kfuse-opt %s --kf-kernel-report=row-persistent=false -o /dev/null | FileCheck %s --check-prefix=NOROW
// RUN: kfuse-opt %s --kf-kernel-report=matmul-epilogue=false -o /dev/null | FileCheck %s --check-prefix=NOMATMUL
// RUN: kfuse-opt %s "--kf-kernel-report=reshape=false reshape-propagation=false" -o /dev/null | FileCheck %s --check-prefix=NORESHAPE
// (@two_dims with multi-reduction off: its two reductions of exp(x) over
// both dims are otherwise one kernel, as multi-reduction.mlir shows.)
// RUN: kfuse-opt %s "--kf-kernel-report=recompute=false multi-reduction=false" -o /dev/null | FileCheck %s --check-prefix=NORECOMPUTE

// fusion=off gives eager's boundaries in the fused column: 4 kernels.
// max-ops=2 splits the chain of 4 into 2 kernels of 2: neg+exp reads a,
// writes t (2); mul+relu reads t, b, writes y (3).
// Without the pointwise rule, every elementwise op is its own kernel.
// NONE-LABEL: function @chain4
// NONE-NEXT: eager fused
// NONE-NEXT: kernels 4 4
// NONE-NEXT: transfers 9 9
// NONE: (neg -> exp): fusion-off: fusion is off (eager boundaries)
// MAXOPS-LABEL: function @chain4
// MAXOPS-NEXT: eager fused
// MAXOPS-NEXT: kernels 4 2
// MAXOPS-NEXT: transfers 9 5
// MAXOPS: (exp -> mul): op-limit: op limit reached
// NOPOINTWISE-LABEL: function @chain4
// NOPOINTWISE: kernels 4 4
// NOPOINTWISE: (neg -> exp): rule-disabled: pointwise=false
func.func @chain4(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %0 = kf.neg %a : tensor<16xf32>
  %1 = kf.exp %0 : tensor<16xf32>
  %2 = kf.mul %1, %b : tensor<16xf32>, tensor<16xf32>
  %3 = kf.relu %2 : tensor<16xf32>
  return %3 : tensor<16xf32>
}

// sqrt(sum(exp(x))): without the prologue rule exp stays apart (2
// kernels); without the epilogue rule sqrt does.
// NOPROLOGUE-LABEL: function @prologue_epilogue
// NOPROLOGUE: kernels 3 2
// NOPROLOGUE: (exp -> sum): rule-disabled: reduction-prologue=false
// NOEPILOGUE-LABEL: function @prologue_epilogue
// NOEPILOGUE: kernels 3 2
// NOEPILOGUE: (sum -> sqrt): rule-disabled: reduction-epilogue=false
func.func @prologue_epilogue(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = kf.exp %x : tensor<4x8xf32>
  %1 = kf.sum %0 dims [1] : tensor<4x8xf32>
  %2 = kf.sqrt %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// softmax without row-persistent reductions: max (2); sub, exp, sum (reads
// x, m; writes e, z: 4); div (reads e, z, writes y: 3).
// NOROW-LABEL: function @softmax
// NOROW-NEXT: eager fused
// NOROW-NEXT: kernels 5 3
// NOROW-NEXT: transfers 12 9
// NOROW: (max -> sub): rule-disabled: row-persistent=false
// The exp -> div pair is kept apart by the same switch, and says so (it
// printed "rule disabled: " with no rule before; now the switch itself).
// NOROW: (exp -> div): rule-disabled: row-persistent=false{{$}}
// NOROW: (sum -> div): rule-disabled: row-persistent=false
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = kf.softmax %x dim 1 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// matmul + relu without the matmul epilogue rule: 2 kernels.
// NOMATMUL-LABEL: function @matmul_relu
// NOMATMUL: kernels 2 2
// NOMATMUL: (matmul -> relu): rule-disabled: matmul-epilogue=false
func.func @matmul_relu(%a: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = kf.matmul %a, %w : tensor<4x8xf32>, tensor<8x4xf32>
  %1 = kf.relu %0 : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// Elementwise ops across a reshape, with the reshape rule off (and
// reshape-propagation, which would run the add over [32] and leave no
// reshape between the two: test/Fusion/reshapes.mlir).
// NORESHAPE-LABEL: function @across_reshape
// NORESHAPE: kernels 2 2
// NORESHAPE: (add -> relu): rule-disabled: reshape=false
func.func @across_reshape(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<32xf32> {
  %0 = kf.add %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
  %1 = kf.reshape %0 [32] : tensor<4x8xf32>
  %2 = kf.relu %1 : tensor<32xf32>
  return %2 : tensor<32xf32>
}

// Without recomputation, exp is written once and read back by the second
// reduction: exp+sum reads x, writes t and the sum (3); sum reads t (2).
// NORECOMPUTE-LABEL: function @two_dims
// NORECOMPUTE-NEXT: eager fused
// NORECOMPUTE-NEXT: kernels 3 2
// NORECOMPUTE-NEXT: transfers 6 5
// NORECOMPUTE: (exp -> sum): reduction-mismatch: reductions over different dims or sizes
func.func @two_dims(%x: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %0 = kf.exp %x : tensor<4x8xf32>
  %1 = kf.sum %0 dims [0] : tensor<4x8xf32>
  %2 = kf.sum %0 dims [1] : tensor<4x8xf32>
  return %1, %2 : tensor<8xf32>, tensor<4xf32>
}
