// Bad values of kfuse-compile's options are refused before any work, with
// the option and its value named, exit 1, no output:
// --host-cpu=garbage went to the LLVM backend, which aborted with a fatal
// error; --dump-dir= (empty) dumped every stage into the current directory.
// RUN: rm -rf %t && mkdir -p %t/cwd
// RUN: not kfuse-compile %s --emit=lib --host-cpu=garbage -o %t/a.so 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CPU
// RUN: not kfuse-compile %s --host-cpu=garbage -o %t/a.ptx 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not kfuse-compile %s --emit=lib --host-cpu= -o %t/a.so 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOCPU
// RUN: not test -e %t/a.so
// RUN: not test -e %t/a.ptx
// CPU: kfuse-compile: error: --host-cpu=garbage: not a CPU LLVM knows for {{.*}} (for example x86-64, x86-64-v3, skylake, znver3, or native)
// CPU-NOT: LLVM ERROR
// NOCPU: kfuse-compile: error: --host-cpu=: not a CPU LLVM knows
// Known names, and native, compile.
// RUN: kfuse-compile %s --emit=lib --host-cpu=x86-64 -o %t/generic.so
// RUN: kfuse-compile %s --emit=lib --host-cpu=native -o %t/native.so
// RUN: kfuse-run %t/native.so --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=LOADS
// RUN: kfuse-run %t/generic.so --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=LOADS
// LOADS: check against the CPU, unfused: {{.*}}: ok

// RUN: cd %t/cwd && not kfuse-compile %s --dump-dir= -o %t/b.ptx 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: bash -c 'echo count: $(ls -A %t/cwd | wc -l)' | FileCheck %s --check-prefix=NOTHING
// RUN: not test -e %t/b.ptx
// DUMP: kfuse-compile: error: --dump-dir needs a directory (an empty one would be the current directory)
// NOTHING: count: 0
func.func @add(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.add %a, %b : tensor<8xf32>, tensor<8xf32>
  return %0 : tensor<8xf32>
}
