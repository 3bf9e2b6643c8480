// The host code of a library is compiled for the CPU that compiles it
// (kfuse-compile --host-cpu=native, the default), or for a CPU named
// explicitly (a portable build: x86-64-v3, x86-64). The library records
// the CPU and its features (the manifest's host_cpu), and a library loaded
// on a CPU without one of them is refused, naming the missing features,
// instead of dying of SIGILL in its first kernel. What this machine has is
// read from /proc/cpuinfo and from llc (host-cpu.mlir.py), not from kfuse.
// RUN: rm -rf %t && mkdir -p %t
//
// The default records native: LLVM's name of this CPU (llc --version's
// Host CPU) and features that agree with /proc/cpuinfo; it runs here.
// RUN: kfuse-compile %s --emit=lib -o %t/default.so
// RUN: %python %s.py recorded %t/default.so > %t/recorded.txt
// RUN: llc --version | sed -n 's/^ *Host CPU: /requested native name /p' | diff - %t/recorded.txt
// RUN: kfuse-run %t/default.so --entry=add_relu --device=cpu --warmup=0 --repeat=1 --check \
// RUN:   | FileCheck %s --check-prefix=RUNS
// RUNS: check against the CPU, unfused: {{.*}}: ok
//
// Portable builds, chosen explicitly, record the CPU named and run here.
// RUN: kfuse-compile %s --emit=lib --host-cpu=x86-64-v3 -o %t/v3.so
// RUN: %python %s.py recorded %t/v3.so | grep requested | FileCheck %s --check-prefix=V3
// V3: requested x86-64-v3 name x86-64-v3
// RUN: kfuse-compile %s --emit=lib --host-cpu=x86-64 -o %t/x86-64.so
// RUN: kfuse-run %t/x86-64.so --entry=add_relu --device=cpu --warmup=0 --repeat=1 --check \
// RUN:   | FileCheck %s --check-prefix=RUNS
//
// Negative: a library for a CPU with a feature this one lacks (x86-64-v4's
// AVX-512 here; the helper picks one this machine lacks) is refused before
// any of its code runs: an error, exit status 1, no signal (`not` fails on
// a crash). The same from any program that loads it (Python's ctypes).
// RUN: kfuse-compile %s --emit=lib --host-cpu=$(%python %s.py lacking-cpu) -o %t/other.so
// RUN: not kfuse-run %t/other.so --entry=add_relu --device=cpu --repeat=1 2> %t/refused.txt
// RUN: FileCheck %s --check-prefix=REFUSED < %t/refused.txt
// RUN: %python %s.py refusal %t/refused.txt | FileCheck %s --check-prefix=NAMED
// RUN: not %python -c "import ctypes; ctypes.CDLL('%t/other.so')" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REFUSED
// REFUSED: kfuse runtime: error: {{.*}}other.so was compiled for the CPU '{{.+}}' (kfuse-compile --host-cpu), and this CPU lacks {{.+}}: compile it again on this machine (--host-cpu=native, the default) or for a CPU both have (--host-cpu=x86-64-v3 for AVX2 and FMA, x86-64 for any x86-64 CPU)
// NAMED: refused as expected
//
// kfuse-run compiles .mlir programs for this CPU, and its compile cache
// keys them by the CPU: an entry built for another CPU is not used, and
// the miss says so (the index edited to name another CPU).
// RUN: cp %s %t/prog.mlir
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %t/prog.mlir --entry=add_relu --device=cpu \
// RUN:   --warmup=0 --repeat=0 | FileCheck %s --check-prefix=FIRST
// FIRST: compile: cache miss (first compile of this program)
// RUN: %python %s.py other-cpu %t/c
// RUN: env KFUSE_CACHE_DIR=%t/c kfuse-run %t/prog.mlir --entry=add_relu --device=cpu \
// RUN:   --warmup=0 --repeat=0 | FileCheck %s --check-prefix=OTHER -DMODEL="$(%python %s.py model)"
// OTHER: compile: cache miss (the host CPU changed: Other CPU #000000000000 -> [[MODEL]] #{{[0-9a-f]+}})

func.func @add_relu(%a: tensor<1000xf32>, %b: tensor<1000xf32>) -> tensor<1000xf32> {
  %s = kf.add %a, %b : tensor<1000xf32>, tensor<1000xf32>
  %r = kf.relu %s : tensor<1000xf32>
  return %r : tensor<1000xf32>
}
