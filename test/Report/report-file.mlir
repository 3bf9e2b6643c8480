// kf-kernel-report's report-file=PATH: the report goes to the file, stdout
// keeps the IR alone (without it the report is printed on stdout after the
// IR, as before). The file is written whole; a directory, the input file
// (by any of its names) and an empty path are refused with an error and a
// non-zero exit, and the input is left as it was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-opt %s --kf-kernel-report=report-file=%t/report.txt | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=TEXT < %t/report.txt
// IR-NOT: function @add_relu
// IR: func.func @add_relu
// IR-NOT: function @add_relu

// TEXT: function @add_relu
// TEXT-NEXT: eager fused
// TEXT-NEXT: kernels 2 1
// TEXT-NEXT: transfers 5 3

// An existing file is replaced, in every format.
// RUN: kfuse-opt %s "--kf-kernel-report=format=json report-file=%t/report.txt" -o %t/ir.mlir
// RUN: FileCheck %s --check-prefix=JSON < %t/report.txt
// RUN: FileCheck %s --check-prefix=IR < %t/ir.mlir
// RUN: kfuse-opt %s "--kf-kernel-report=format=dot report-file=%t/report.txt" -o /dev/null
// RUN: FileCheck %s --check-prefix=DOT < %t/report.txt
// DOT: digraph kfuse {
// DOT: label="@add_relu: 1 kernels, 48 bytes (eager 2 kernels, 80 bytes)";

// format=json: schema_version 1 at the top level, beside the functions
// (llvm::json prints an object's keys in sorted order).
// JSON: {
// JSON-NEXT: "functions": [
// JSON: "name": "add_relu"
// JSON: "schema_version": 1
// JSON-NEXT: }
// RUN: kfuse-opt %s --kf-kernel-report=format=json -o /dev/null | %python -c "import json, sys; d = json.load(sys.stdin); assert d['schema_version'] == 1 and sorted(d) == ['functions', 'schema_version'], d; print('schema ok')" | FileCheck %s --check-prefix=SCHEMA
// SCHEMA: schema ok

// RUN: not kfuse-opt %s --kf-kernel-report=report-file=%t -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: error: kf-kernel-report: report-file {{.*}} is a directory; give the path of a file

// The input itself, directly and through a symlink, is refused before
// anything is written: the copy is unchanged.
// RUN: cp %s %t/input.mlir && ln -s input.mlir %t/link.mlir
// RUN: not kfuse-opt %t/input.mlir --kf-kernel-report=report-file=%t/input.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: not kfuse-opt %t/input.mlir --kf-kernel-report=report-file=%t/link.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: cmp %s %t/input.mlir
// INPUT: error: kf-kernel-report: report-file {{.*}}.mlir is the input file; refusing to overwrite it

// RUN: not kfuse-opt %s --kf-kernel-report=report-file= -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: kf-kernel-report: report-file needs a path (leave it out, or give -, for stdout)

// A directory that does not exist: the write fails, with the reason.
// RUN: not kfuse-opt %s --kf-kernel-report=report-file=%t/none/report.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: kf-kernel-report: report-file: cannot write {{.*}}none/report.txt: {{.*}}o such file or directory

// No temporary is left behind.
// RUN: ls %t | FileCheck %s --check-prefix=LEFT
// LEFT-NOT: kfuse-tmp
func.func @add_relu(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kf.add %a, %b : tensor<4xf32>, tensor<4xf32>
  %1 = kf.relu %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
