// kf-kernel-report's report-file may not be kfuse-opt's -o file: both used
// to be written to it, the report replacing the IR (or the IR the report)
// without a word. It is refused, compared as files (a hard link, a
// symbolic link, ./ spellings, a file not made yet), with an error and a
// non-zero exit, and what stood at the path is left as it was: -o is
// written whole once the passes succeed, not truncated before they run.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: echo old > out.mlir && ln out.mlir hard.mlir && ln -s out.mlir soft.mlir
//
// The same path; the same file by another spelling, a hard link, a
// symbolic link.
// RUN: not kfuse-opt %s --kf-kernel-report=report-file=out.mlir -o out.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SAME
// SAME: error: kf-kernel-report: report-file out.mlir is also the output file (-o out.mlir); one would replace the other: give the report another path
// RUN: not kfuse-opt %s --kf-kernel-report=report-file=./out.mlir -o %t/out.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SPELLED
// SPELLED: error: kf-kernel-report: report-file ./out.mlir is also the output file (-o {{.*}}out.mlir)
// RUN: not kfuse-opt %s --kf-kernel-report=report-file=hard.mlir -o out.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HARD
// HARD: error: kf-kernel-report: report-file hard.mlir is also the output file (-o out.mlir)
// RUN: not kfuse-opt %s --kf-kernel-report=report-file=soft.mlir -o out.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SOFT
// SOFT: error: kf-kernel-report: report-file soft.mlir is also the output file (-o out.mlir)
// RUN: cat out.mlir | FileCheck %s --check-prefix=OLD
// OLD: {{^}}old{{$}}
//
// A file not made yet, named twice.
// RUN: not kfuse-opt %s --kf-kernel-report=report-file=new.mlir -o ./new.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEW
// NEW: error: kf-kernel-report: report-file new.mlir is also the output file (-o ./new.mlir)
// RUN: test ! -e new.mlir
//
// Two files: the IR in one, the report in the other; stdout and a file.
// RUN: kfuse-opt %s --kf-kernel-report=report-file=report.txt -o out.mlir
// RUN: FileCheck %s --check-prefix=IR < out.mlir
// RUN: FileCheck %s --check-prefix=TEXT < report.txt
// RUN: kfuse-opt %s --kf-kernel-report=report-file=report.txt | FileCheck %s --check-prefix=IR
// RUN: kfuse-opt %s --kf-kernel-report -o out.mlir | FileCheck %s --check-prefix=TEXT
// IR: func.func @add_relu
// TEXT: function @add_relu
// TEXT-NEXT: eager fused
//
// A failed run leaves -o's file as it was (it used to be emptied and
// removed): here a bad option of the pass.
// RUN: echo old > out.mlir
// RUN: not kfuse-opt %s --kf-kernel-report=max-ops=x -o out.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: kf-kernel-report: max-ops must be a number
// RUN: cat out.mlir | FileCheck %s --check-prefix=OLD
// RUN: ls -A | FileCheck %s --check-prefix=LEFT
// LEFT-NOT: kfuse-tmp
func.func @add_relu(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kf.add %a, %b : tensor<4xf32>, tensor<4xf32>
  %1 = kf.relu %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
