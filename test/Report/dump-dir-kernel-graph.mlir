// kfuse-compile --dump-dir also writes the kernel graph of the program as
// compiled (kf-kernel-report format=dot with --fusion's switches) as
// <function>.kernels.dot (the input's name when it has several functions),
// and renders it to .kernels.svg when Graphviz's `dot` is on PATH. A `dot`
// that fails, or none on PATH, costs only the picture: a warning at most,
// exit status 0. test/Report/kernel-graph-svg.mlir checks the real `dot`.
// RUN: rm -rf %t && mkdir -p %t/fail-bin %t/no-bin
// RUN: printf '#!/bin/sh\necho "dot: out of ink" >&2\nexit 3\n' > %t/fail-bin/dot && chmod +x %t/fail-bin/dot
// RUN: env PATH=%t/no-bin kfuse-compile %s --fusion=row-persistent=false --dump-dir=%t/a -o %t/a.ptx 2>&1 | count 0
// RUN: ls %t/a | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=DOT < %t/a/softmax.kernels.dot
// FILES: 06-host.mlir
// FILES-NEXT: kernels.json
// FILES-NEXT: softmax.kernels.dot
// FILES-NOT: svg

// The same switches as the compilation: three kernels, the boundaries
// named by the switch, 1024 x 4 and 1024 x 1024 x 4 bytes.
// DOT: digraph kfuse {
// DOT: label="@softmax: 3 kernels
// DOT: label="rule-disabled: row-persistent=false\n4096 bytes"
// DOT: label="rule-disabled: row-persistent=false\n4194304 bytes"

// RUN: env PATH=%t/fail-bin kfuse-compile %s --fusion=row-persistent=false --dump-dir=%t/b -o %t/b.ptx 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: ls %t/b | FileCheck %s --check-prefix=FAILFILES
// FAIL: kfuse-compile: warning: {{.*}}softmax.kernels.svg not written: {{.*}}dot -Tsvg failed
// FAILFILES: softmax.kernels.dot
// FAILFILES-NOT: kfuse-tmp
// FAILFILES-NOT: svg

// The graph's own formation of kernels does not repeat the remarks:
// softmax's three boundaries are remarked on once each.
// RUN: env PATH=%t/no-bin kfuse-compile %s --fusion=row-persistent=false --remarks-filter=kf-form-kernels --dump-dir=%t/d -o %t/d.ptx 2>&1 | FileCheck %s --check-prefix=REMARKS
// REMARKS-COUNT-3: remark: [Missed] kernel-fusion
// REMARKS-NOT: remark: [Missed]

// An input file is never replaced by the graph: a program named
// softmax.kernels.dot in the dump directory is refused before anything is
// written.
// RUN: mkdir -p %t/c && cp %s %t/c/softmax.kernels.dot
// RUN: not kfuse-compile %t/c/softmax.kernels.dot --dump-dir=%t/c -o %t/c.ptx 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: cmp %s %t/c/softmax.kernels.dot
// INPUT: kfuse-compile: error: --dump-dir file {{.*}}softmax.kernels.dot is the input file; refusing to overwrite it
func.func @softmax(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %y = kf.softmax %x dim -1 : tensor<1024x1024xf32>
  return %y : tensor<1024x1024xf32>
}
