// kf-form-kernels counts what a researcher counts (--mlir-pass-statistics):
// ops that eager runs as one kernel each, kernels formed, producer/consumer
// pairs fused or recomputed, and the boundaries by reason. The counts are the
// report's (kf-kernel-report on examples/softmax.mlir), counted by hand here.
// Statistics exist only in LLVM builds that keep them (assertions, or
// LLVM_FORCE_ENABLE_STATS); packaged release builds compile them out.
// REQUIRES: pass-statistics
// RUN: kfuse-opt %kfuse_src/examples/softmax.mlir --kf-to-linalg --kf-form-kernels --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: kfuse-opt %kfuse_src/examples/softmax.mlir --kf-to-linalg --kf-form-kernels=fusion=off --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: kfuse-opt %kfuse_src/examples/softmax.mlir --kf-to-linalg --kf-form-kernels=row-persistent=false --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOROW

// softmax(x) = exp(x - max(x)) / sum(exp(x - max(x))): 5 eager kernels (max,
// sub, exp, sum, div) and 5 producer/consumer pairs: max -> sub, sub -> exp,
// exp -> sum, exp -> div, sum -> div.
// Fused: one kernel, every pair inside it.
// FUSED-LABEL: KfFormKernels
// FUSED-DAG: (S) {{ *}}0 boundaries {{ *}}- producer/consumer pairs in different kernels
// FUSED-DAG: (S) {{ *}}0 boundaries-fusion-off {{ *}}- fusion is off
// FUSED-DAG: (S) {{ *}}5 fused {{ *}}- producer/consumer pairs in one kernel
// FUSED-DAG: (S) {{ *}}1 kernels {{ *}}- kernels formed
// FUSED-DAG: (S) {{ *}}5 ops {{ *}}- ops that eager runs as one kernel each
// FUSED-DAG: (S) {{ *}}0 recomputed {{ *}}- producers recomputed

// Off: one kernel per op, all 5 pairs are boundaries with reason fusion-off.
// OFF-LABEL: KfFormKernels
// OFF-DAG: (S) {{ *}}5 boundaries {{ *}}- producer/consumer pairs in different kernels
// OFF-DAG: (S) {{ *}}5 boundaries-fusion-off {{ *}}- fusion is off
// OFF-DAG: (S) {{ *}}0 boundaries-rule-disabled {{ *}}-
// OFF-DAG: (S) {{ *}}0 fused {{ *}}- producer/consumer pairs in one kernel
// OFF-DAG: (S) {{ *}}5 kernels {{ *}}- kernels formed
// OFF-DAG: (S) {{ *}}5 ops {{ *}}- ops that eager runs as one kernel each

// Without row-persistent, max -> sub and sum -> div are refused by the rule;
// exp -> div is refused because div may not join sum's kernel (the same
// rule): 3 kernels (max | sub, exp, sum | div), 2 pairs fused (sub -> exp,
// exp -> sum), 3 boundaries, all rule-disabled.
// NOROW-LABEL: KfFormKernels
// NOROW-DAG: (S) {{ *}}3 boundaries {{ *}}- producer/consumer pairs in different kernels
// NOROW-DAG: (S) {{ *}}3 boundaries-rule-disabled {{ *}}-
// NOROW-DAG: (S) {{ *}}0 boundaries-fusion-off {{ *}}-
// NOROW-DAG: (S) {{ *}}2 fused {{ *}}- producer/consumer pairs in one kernel
// NOROW-DAG: (S) {{ *}}3 kernels {{ *}}- kernels formed
// NOROW-DAG: (S) {{ *}}5 ops {{ *}}- ops that eager runs as one kernel each
