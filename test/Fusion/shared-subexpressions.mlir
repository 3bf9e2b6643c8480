// A cheap elementwise value read by one kernel at other elements than it
// is computed at (broadcast both ways, `y[:, None] * y[None, :]`, or read
// transposed beside a read in place, `y.t() * w + y`) is computed in that
// kernel at each element read (issue 26's shared subexpressions read
// broadcast and transposed; Inductor inlines such a node into each read).
// Two mechanisms: inside a fused pointwise kernel, formation gives each
// reader its own copy of a shared arithmetic producer (no math function:
// an exp read broadcast both ways would run N^2 times, not N), which
// elementwise fusion then computes in the reader (copySharedProducers,
// KernelBodies.cpp);
// across a boundary, the recompute rule weighs all the reads of a
// producer by one kernel together (Recompute.cpp): copied for every read,
// the kernel no longer reads the result at all, and the producer's kernel
// goes. Counts argued by hand; a tensor read twice by one kernel counts
// once.
// RUN: kfuse-opt %s -split-input-file --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-kernel-report=recompute=false -o /dev/null | FileCheck %s --check-prefix=NORECOMPUTE
// RUN: kfuse-opt %s -split-input-file --kf-kernel-report=pointwise=false -o /dev/null | FileCheck %s --check-prefix=NOPOINTWISE
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels | FileCheck %s --check-prefix=FORM
// Each decision is a remark: both reads of the transposed value are
// recomputed.
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels --remarks-filter-passed=kf-form-kernels -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: Function=transposed_and_broadcast | Reason="producer recomputed in the consumer's kernel", Remark="tanh -> mul fused into pointwise_neg_tanh_mul_add_tanh_add_{{[0-9]+}}"
// REMARK-DAG: Function=transposed_and_broadcast | Reason="producer recomputed in the consumer's kernel", Remark="tanh -> add fused into pointwise_neg_tanh_mul_add_tanh_add_{{[0-9]+}}"
// Results: CPU and the emulated GPU kernels against the unfused run.
// RUN: %fusion-diff %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-6 --candidate=--kf-gpu-emulation-pipeline %s
// And against numpy in float64 (independent), fused through kfuse-run on
// the CPU, at dynamic and odd sizes (vector tails). tanh of f32 and the
// products are within a few ulps: rtol 1e-5; sums of O(1) to O(10)
// values that may cancel: atol 1e-5 (1e-6 where the values are O(1)).
// RUN: %run-check %S/Inputs/shared-subexpressions-run.mlir --input "arg0=f32[77]" \
// RUN:   --expect "(lambda y: np.tanh(y[:, None] * y[None, :]))(arg0.astype(np.float64) ** 2)" \
// RUN:   --rtol=1e-5 --atol=0 -- --entry=outer --device=cpu --repeat=2 --check | FileCheck %s --check-prefix=NUMPY
// RUN: %run-check %S/Inputs/shared-subexpressions-run.mlir --input "arg0=f32[45]" --input "arg1=f32[45x45]" \
// RUN:   --expect "(arg0.astype(np.float64) ** 2)[:, None] + arg1" \
// RUN:   --expect "(arg0.astype(np.float64) ** 2)[None, :] * arg1" \
// RUN:   --rtol=1e-5 --atol=1e-6 -- --entry=two_readers --device=cpu --repeat=2 --check | FileCheck %s --check-prefix=NUMPY
// RUN: %run-check %S/Inputs/shared-subexpressions-run.mlir --input "arg0=f32[301x301]" --input "arg1=f32[301]" \
// RUN:   --expect "np.tanh(arg0.astype(np.float64)).T * -arg1.astype(np.float64)[:, None] - arg1.astype(np.float64)[None, :] + np.tanh(arg0.astype(np.float64))" \
// RUN:   --rtol=1e-5 --atol=1e-5 -- --entry=transposed_and_broadcast --device=cpu --repeat=2 --check | FileCheck %s --check-prefix=NUMPY
// NUMPY: check against the CPU, unfused: {{.*}}: ok
// NUMPY: run_check: result0 {{.*}} matches numpy

// The outer product of y = x * x with itself: eager mul (64 in, 64 out),
// mul (64, 4096), tanh (4096, 4096): 12480 elements. Fused: x in, the
// product out: 4160. Each factor is its own x * x, computed in the
// product's body.
// CHECK-LABEL: function @outer
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK-NEXT: transfers 6 2
// CHECK-NEXT: elements 12480 4160
// CHECK: pointwise_mul_mul_tanh_{{[0-9]+}} (pointwise): ops mul, mul, tanh
// CHECK: runs as flat
// CHECK: boundaries: none
// Without the pointwise rule every op is a kernel.
// NOPOINTWISE-LABEL: function @outer
// NOPOINTWISE-NEXT: eager fused
// NOPOINTWISE-NEXT: kernels 3 3
// NOPOINTWISE: (mul -> mul): rule-disabled: pointwise=false
// FORM-LABEL: func.func @outer
// FORM: kf.kernel "pointwise_mul_mul_tanh_{{[0-9]+}}" kind pointwise
// FORM: linalg.generic {indexing_maps = [#[[COL:map[0-9]*]], #[[ROW:map[0-9]*]], #{{map[0-9]*}}], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg0 : tensor<64xf32>, tensor<64xf32>) outs({{.*}} : tensor<64x64xf32>)
// FORM: %[[A:.*]] = arith.mulf %[[XJ:.*]], %[[XJ]]
// FORM: %[[B:.*]] = arith.mulf %[[XI:.*]], %[[XI]]
// FORM: arith.mulf %[[B]], %[[A]]
// FORM: math.tanh
// FORM-NOT: linalg.generic
// FORM: kf.yield
func.func @outer(%x: tensor<64xf32>) -> tensor<64x64xf32> {
  %y = kf.mul %x, %x : tensor<64xf32>, tensor<64xf32>
  %a = kf.reshape %y [64, 1] : tensor<64xf32>
  %b = kf.reshape %y [1, 64] : tensor<64xf32>
  %s = kf.mul %a, %b : tensor<64x1xf32>, tensor<1x64xf32>
  %e = kf.tanh %s : tensor<64x64xf32>
  return %e : tensor<64x64xf32>
}

// -----

// A chain before the outer product: both ops are copied, one level each
// round of merging. Eager neg (64, 64), mul (64 read once, 64), sub (64,
// 4096): 4416; fused 64 + 4096.
// CHECK-LABEL: function @chain_outer
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK: elements 4416 4160
func.func @chain_outer(%x: tensor<64xf32>) -> tensor<64x64xf32> {
  %y = kf.neg %x : tensor<64xf32>
  %z = kf.mul %y, %y : tensor<64xf32>, tensor<64xf32>
  %a = kf.reshape %z [64, 1] : tensor<64xf32>
  %b = kf.reshape %z [1, 64] : tensor<64xf32>
  %s = kf.sub %a, %b : tensor<64x1xf32>, tensor<1x64xf32>
  return %s : tensor<64x64xf32>
}

// -----

// One value read broadcast by two results of the kernel, over its rows and
// over its columns. Eager mul (64, 64), add (64 + 4096, 4096), mul (64 +
// 4096, 4096): 16640; fused x and z in, two results out: 12352.
// CHECK-LABEL: function @two_readers
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK: elements 16640 12352
func.func @two_readers(%x: tensor<64xf32>, %z: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %y = kf.mul %x, %x : tensor<64xf32>, tensor<64xf32>
  %a = kf.reshape %y [64, 1] : tensor<64xf32>
  %p = kf.add %a, %z : tensor<64x1xf32>, tensor<64x64xf32>
  %q = kf.mul %y, %z : tensor<64xf32>, tensor<64x64xf32>
  return %p, %q : tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// tanh(x) read transposed by the product and in place by the last add; w
// = -v read broadcast over rows and over columns. Eager tanh (4096,
// 4096), neg (64, 64), mul (4096 + 64, 4096), add (4096 + 64, 4096), add
// (4096 + 4096, 4096): 37120. Fused: x and v in, the result out: 8256.
// Without the recompute rule (or before it weighed both reads of tanh
// together: each read alone saves nothing, the other still reads the
// result) tanh is its own kernel and the second reads its result: 8192 +
// 8256.
// CHECK-LABEL: function @transposed_and_broadcast
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 5 1
// CHECK-NEXT: transfers 13 3
// CHECK-NEXT: elements 37120 8256
// CHECK: boundaries: none
// NORECOMPUTE-LABEL: function @transposed_and_broadcast
// NORECOMPUTE-NEXT: eager fused
// NORECOMPUTE-NEXT: kernels 5 2
// NORECOMPUTE: elements 37120 16448
// NORECOMPUTE: (tanh -> mul): not-in-place: read at other elements (a broadcast, a view) and read elsewhere too
func.func @transposed_and_broadcast(%x: tensor<64x64xf32>, %v: tensor<64xf32>) -> tensor<64x64xf32> {
  %y = kf.tanh %x : tensor<64x64xf32>
  %t = kf.transpose %y [1, 0] : tensor<64x64xf32>
  %w = kf.neg %v : tensor<64xf32>
  %a = kf.reshape %w [64, 1] : tensor<64xf32>
  %s = kf.mul %t, %a : tensor<64x64xf32>, tensor<64x1xf32>
  %r = kf.add %s, %w : tensor<64x64xf32>, tensor<64xf32>
  %q = kf.add %r, %y : tensor<64x64xf32>, tensor<64x64xf32>
  return %q : tensor<64x64xf32>
}

// -----

// Refused: the shared value is also a result. The kernel computing the
// product cannot also write exp(x) (its ops would iterate over two
// shapes), so exp stays its own kernel, which writes the result the
// product reads back.
// CHECK-LABEL: function @also_returned
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 2
// CHECK: (exp -> add): unmappable: no GPU mapping serves the fused kernel ({{.*}}: its ops iterate over different shapes)
func.func @also_returned(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64x64xf32>) {
  %y = kf.exp %x : tensor<64xf32>
  %a = kf.reshape %y [64, 1] : tensor<64xf32>
  %b = kf.reshape %y [1, 64] : tensor<64xf32>
  %s = kf.add %a, %b : tensor<64x1xf32>, tensor<1x64xf32>
  return %y, %s : tensor<64xf32>, tensor<64x64xf32>
}

// -----

// Not copied: a math function read broadcast both ways. Computed in the
// product, exp(x)[:, None] * exp(x)[None, :] would take 2 exps an element
// (2 x 4096) where its own kernel takes 64: one kernel was 2.1-2.3x slower
// on the CPU. The product kernel reads the 64 values back: 128 + 64 +
// 4096 + (the tanh fused) = 4288.
// CHECK-LABEL: function @outer_of_exp
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 2
// CHECK: elements 12480 4288
// CHECK: (exp -> mul): unmappable: no GPU mapping serves the fused kernel ({{.*}}: its ops iterate over different shapes)
func.func @outer_of_exp(%x: tensor<64xf32>) -> tensor<64x64xf32> {
  %y = kf.exp %x : tensor<64xf32>
  %a = kf.reshape %y [64, 1] : tensor<64xf32>
  %b = kf.reshape %y [1, 64] : tensor<64xf32>
  %s = kf.mul %a, %b : tensor<64x1xf32>, tensor<1x64xf32>
  %e = kf.tanh %s : tensor<64x64xf32>
  return %e : tensor<64x64xf32>
}
