// While kfuse-run compiles, runs and checks, a line on stderr says what it
// does and for how long, rewritten in place with '\r' and blanked at the
// end (tools/kfuse-run/Progress.h). It is shown when stderr is a terminal;
// KFUSE_PROGRESS=1 forces it (here stderr is a file), =0 turns it off,
// and stdout never has it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env KFUSE_PROGRESS=1 KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir \
// RUN:   --device=cpu --warmup=1 --repeat=2 --check > %t/out 2> %t/err
// RUN: tr '\r' '\n' < %t/err | FileCheck %s
// CHECK: {{^}}compiling add_relu.mlir (fusion on), 0.0 s
// CHECK: {{^}}running: first call, {{[0-9]+\.[0-9]}} s
// CHECK: {{^}}running: warmup 1/1, {{[0-9]+\.[0-9]}} s
// CHECK: {{^}}running: call 1/2, {{[0-9]+\.[0-9]}} s
// CHECK: {{^}}compiling the float64 reference of add_relu.mlir, {{[0-9]+\.[0-9]}} s
// CHECK: {{^}}compiling the unfused version of add_relu.mlir, {{[0-9]+\.[0-9]}} s
// CHECK: {{^}}checking against the program in float64 on the CPU, {{[0-9]+\.[0-9]}} s
// CHECK: {{^ +$}}
// CHECK-NOT: {{[a-z]}}
// RUN: FileCheck %s --check-prefix=STDOUT < %t/out
// STDOUT-NOT: running:
// STDOUT: check against the CPU, unfused: {{.*}}: ok
// STDOUT-NOT: running:
//
// The switches are named; a cache hit compiles nothing, so says nothing of it.
// RUN: env KFUSE_PROGRESS=1 KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir \
// RUN:   --device=cpu --repeat=1 --fusion=max-ops=4 2>&1 >/dev/null | tr '\r' '\n' \
// RUN:   | FileCheck %s --check-prefix=SWITCHES
// SWITCHES: compiling add_relu.mlir (fusion max-ops=4), 0.0 s
// RUN: env KFUSE_PROGRESS=1 KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir \
// RUN:   --device=cpu --repeat=1 2>&1 >/dev/null | tr '\r' '\n' | FileCheck %s --check-prefix=HIT
// HIT-NOT: compiling
// HIT: running: first call
//
// Not a terminal, KFUSE_PROGRESS=0, or --quiet (the --check child): nothing.
// RUN: env -u KFUSE_PROGRESS KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir \
// RUN:   --device=cpu --repeat=1 --no-cache 2> %t/none >/dev/null
// RUN: count 0 < %t/none
// RUN: env KFUSE_PROGRESS=0 KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir \
// RUN:   --device=cpu --repeat=1 --no-cache 2> %t/none >/dev/null
// RUN: count 0 < %t/none
// RUN: env KFUSE_PROGRESS=1 KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir \
// RUN:   --device=cpu --repeat=1 --quiet 2> %t/none >/dev/null
// RUN: count 0 < %t/none
// A signal's message starts a line of its own (the line is left as it was).
// RUN: not timeout -s TERM 2 env KFUSE_PROGRESS=1 KFUSE_CACHE_DIR=%t/c kfuse-run \
// RUN:   %kfuse_src/examples/add_relu.mlir --device=cpu --repeat=1000000 2>&1 >/dev/null \
// RUN:   | tr '\r' '\n' | FileCheck %s --check-prefix=SIGNAL
// SIGNAL: running: call
// SIGNAL: {{^}}kfuse-run: stopped by SIGTERM; temporary files removed
// An error clears the line first: the message starts a line of its own.
// RUN: not env KFUSE_PROGRESS=1 KFUSE_CACHE_DIR=%t/c kfuse-run %kfuse_src/examples/add_relu.mlir \
// RUN:   --device=cpu --repeat=1 --input arg0=%t/missing.npy 2>&1 | tr '\r' '\n' \
// RUN:   | FileCheck %s --check-prefix=ERROR
// ERROR: {{^}}kfuse-run: error: {{.*}}missing.npy
