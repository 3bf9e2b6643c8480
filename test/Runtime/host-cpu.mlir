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
// Negative: a library for a CPU with a feature this one lacks is refused
// before any of its code runs: an error, exit status 1, no signal (`not`
// fails on a crash). The same from any program that loads it (Python's
// ctypes). Which CPU, and what it lacks, is not written here: the helper
// compiles for CPUs LLVM knows until one has a feature this one lacks, and
// predicts the refusal from the features LLVM gave it (recorded in the
// library), the runtime's table of the features it checks
// (runtime/HostCpu.h) and /proc/cpuinfo.
// RUN: %python %s.py lacking kfuse-compile %s %t %t/other.so > %t/predicted.txt
// RUN: not kfuse-run %t/other.so --entry=add_relu --device=cpu --repeat=1 2> %t/refused.txt
// RUN: FileCheck %s --check-prefix=REFUSED < %t/refused.txt
// RUN: %python %s.py refusal %t/refused.txt %t/predicted.txt | FileCheck %s --check-prefix=NAMED
// RUN: not %python -c "import ctypes; ctypes.CDLL('%t/other.so')" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REFUSED
// REFUSED: kfuse runtime: error: {{.*}}other.so was compiled for the CPU '{{.+}}' (kfuse-compile --host-cpu), and this CPU lacks {{.+}}: compile it again on this machine (--host-cpu=native, the default) or for a CPU both have (--host-cpu=x86-64-v3 for AVX2 and FMA, x86-64 for any x86-64 CPU)
// NAMED: refused as expected
//
// The same on two other CPUs, pretended, so that every machine tests the
// refusal for them: KFUSE_PRETEND_HOST_FEATURES (LLVM's names, as a
// library records them; the features LLVM gives the CPU named, from its
// library's manifest) stands in for cpuid in the runtime's check and for
// /proc/cpuinfo in the helper. Any other CPU can be tried the same way,
// its LLVM name in place of haswell below. The expected lines are known
// independently: an AVX2-only Intel (haswell) lacks x86-64-v4's AVX-512
// (the x86-64 psABI's level 4: F, BW, CD, DQ, VL); an Intel with AVX-512,
// AVX512-FP16 too (sapphirerapids), passes x86-64-v4 and sapphirerapids
// and lacks at least AMD's SSE4A of znver5 (the case that failed when
// the prediction was written here: avx512vp2intersect alone).
// RUN: %python %s.py features kfuse-compile %s %t haswell > %t/hsw.txt
// RUN: env KFUSE_PRETEND_HOST_FEATURES=$(cat %t/hsw.txt) %python %s.py lacking kfuse-compile \
// RUN:   %s %t %t/other-hsw.so > %t/hsw-predicted.txt
// RUN: FileCheck %s --check-prefix=HSW < %t/hsw-predicted.txt
// HSW: compiled for x86-64-v4 lacks avx512bw, avx512cd, avx512dq, avx512f, avx512vl{{$}}
// RUN: env KFUSE_PRETEND_HOST_FEATURES=$(cat %t/hsw.txt) not kfuse-run %t/other-hsw.so \
// RUN:   --entry=add_relu --device=cpu --repeat=1 2> %t/hsw-refused.txt
// RUN: %python %s.py refusal %t/hsw-refused.txt %t/hsw-predicted.txt \
// RUN:   | FileCheck %s --check-prefix=NAMED
// RUN: %python %s.py features kfuse-compile %s %t sapphirerapids > %t/spr.txt
// RUN: env KFUSE_PRETEND_HOST_FEATURES=$(cat %t/spr.txt) %python %s.py lacking kfuse-compile \
// RUN:   %s %t %t/other-spr.so > %t/spr-predicted.txt
// RUN: FileCheck %s --check-prefix=SPR < %t/spr-predicted.txt
// SPR: compiled for znver5 lacks {{(.*, )?}}sse4a{{(, .*)?$}}
// RUN: env KFUSE_PRETEND_HOST_FEATURES=$(cat %t/spr.txt) not kfuse-run %t/other-spr.so \
// RUN:   --entry=add_relu --device=cpu --repeat=1 2> %t/spr-refused.txt
// RUN: %python %s.py refusal %t/spr-refused.txt %t/spr-predicted.txt \
// RUN:   | FileCheck %s --check-prefix=NAMED
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
