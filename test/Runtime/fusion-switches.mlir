// One fusion vocabulary: a rule switched off with kf-form-kernels' words
// changes the kernel report, the PTX kfuse-compile writes, the pipeline
// kfuse-opt replays and the run kfuse-run times, the same way. Softmax
// with row-persistent=false: the row is no longer owned by one block, so
// max, sub+exp+sum and div are three kernels (one with the rule on).
//
// The report predicts the kernels; the PTX has exactly those entries.
// RUN: kfuse-opt %kfuse_src/examples/softmax.mlir --kf-kernel-report=row-persistent=false -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT
// RUN: kfuse-opt %kfuse_src/examples/softmax.mlir --kf-kernel-report=row-persistent=false -o /dev/null \
// RUN:   | sed -n 's/^    \([a-z_0-9]*\) (.*): ops .*/\1/p' | sort > %t.predicted
// RUN: kfuse-compile %kfuse_src/examples/softmax.mlir --emit=ptx --fusion=row-persistent=false -o %t.ptx
// RUN: sed -n 's/^.visible .entry \([a-z_0-9]*\)(.*/\1/p' %t.ptx | sort > %t.entries
// RUN: diff %t.predicted %t.entries
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// With the rule on (the default), one kernel.
// RUN: kfuse-compile %kfuse_src/examples/softmax.mlir --emit=ptx | FileCheck %s --check-prefix=PTX-ON
// kfuse-opt's pipeline takes the same switch and embeds the same kernels.
// RUN: kfuse-opt %kfuse_src/examples/softmax.mlir --kf-gpu-pipeline=row-persistent=false \
// RUN:   | FileCheck %s --check-prefix=PIPELINE
// Comma- or space-separated, and fusion=off wins over the rule (eager).
// RUN: kfuse-compile %kfuse_src/examples/softmax.mlir --emit=kernels --fusion='row-persistent=false,max-ops=1' \
// RUN:   | FileCheck %s --check-prefix=MAXOPS
// RUN: kfuse-compile %kfuse_src/examples/softmax.mlir --emit=kernels --fusion='row-persistent=false off' \
// RUN:   | FileCheck %s --check-prefix=OFF
//
// kfuse-run compiles and times that configuration: its profiler table
// lists the three kernels; its eager column is unchanged.
// RUN: kfuse-run %kfuse_src/examples/softmax.mlir --device=cpu --warmup=0 --repeat=1 \
// RUN:   --fusion=row-persistent=false | FileCheck %s --check-prefix=TIMED
// A library has its switches compiled in: kfuse-run refuses new ones.
// RUN: kfuse-compile %kfuse_src/examples/softmax.mlir --emit=lib --fusion=row-persistent=false -o %t.so
// RUN: kfuse-run %t.so --device=cpu --warmup=0 --repeat=1 | FileCheck %s --check-prefix=TIMED-LIB
// RUN: not kfuse-run %t.so --device=cpu --fusion=reshape=false 2>&1 | FileCheck %s --check-prefix=LIB-SWITCH

// REPORT: kernels 5 3
// REPORT: reduction_max_0 (reduction): ops max
// REPORT: reduction_sub_exp_sum_1 (reduction): ops sub, exp, sum
// REPORT: pointwise_div_2 (pointwise): ops div
// REPORT: (max -> sub): rule-disabled: row-persistent=false
// PTX-COUNT-3: .visible .entry
// PTX-NOT: .visible .entry
// PTX-ON: .visible .entry reduction_max_sub_exp_sum_div_0(
// PTX-ON-NOT: .visible .entry
// PIPELINE: gpu.binary @kfuse_kernels
// PIPELINE-SAME: .visible .entry reduction_max_0(
// PIPELINE-SAME: .visible .entry reduction_sub_exp_sum_1(
// PIPELINE-SAME: .visible .entry pointwise_div_2(
// MAXOPS-COUNT-5: kf.kernel "
// MAXOPS-NOT: kf.kernel "
// OFF-COUNT-5: kf.kernel "
// OFF-NOT: kf.kernel "
// TIMED: kfuse-run: {{.*}}softmax.mlir, function softmax, fusion row-persistent=false
// TIMED: kernels 5 3
// TIMED: steady state: 1 calls, {{.*}}, 3 launches a call
// TIMED-DAG: reduction_max_0 1
// TIMED-DAG: reduction_sub_exp_sum_1 1
// TIMED-DAG: pointwise_div_2 1
// TIMED-LIB: kernels 5 3
// LIB-SWITCH: kfuse-run: error: --fusion=reshape=false: fusion switches are compiled in; give them with the .mlir program (or to kfuse-compile --emit=lib)
